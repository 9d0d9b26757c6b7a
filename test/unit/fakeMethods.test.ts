import { SlackAPIClient } from "slack-web-api-client";
import { describe, expect, it } from "vitest";
import { TREE_METHODS } from "../../src/testing/fakeMethods";

// The fake's method names are slack-web-api-client's (the typed client's): an upgrade of the
// library that adds or drops a method fails here, naming it, until fakeMethods.ts follows.

function namesUnder(node: unknown, path: string, into: string[], depth: number): string[] {
  if (node === null || typeof node !== "object" || Array.isArray(node) || depth > 4) return into;
  for (const [key, value] of Object.entries(node)) {
    const name = path ? `${path}.${key}` : key;
    if (typeof value === "function") into.push(name);
    else namesUnder(value, name, into, depth + 1);
  }
  return into;
}

describe("the fake Slack's method names", () => {
  it("are the typed client's, every one", () => {
    const tree = namesUnder(new SlackAPIClient("xoxb-names"), "", [], 0).sort();
    expect(tree.length).toBeGreaterThan(200);
    expect([...TREE_METHODS].sort()).toEqual(tree);
  });
});
