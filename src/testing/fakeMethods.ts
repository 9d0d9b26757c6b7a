import { SlackAPIClient } from "slack-web-api-client";

/**
 * The Web API's method names, as the fake Slack knows them: every method of
 * slack-web-api-client's tree (the typed client's own source of names), and the few newer ones
 * Slack documents that it does not have yet. A method outside them is answered as Slack answers
 * a name it does not know: `{ ok: false, error: "unknown_method" }`.
 */
const NEWER_METHODS = ["agents.sessions.setStatus"];

let known: Set<string> | undefined;

function namesUnder(node: unknown, path: string, into: Set<string>, depth: number): void {
  if (node === null || typeof node !== "object" || Array.isArray(node) || depth > 4) return;
  for (const [key, value] of Object.entries(node)) {
    const name = path ? `${path}.${key}` : key;
    if (typeof value === "function") into.add(name);
    else namesUnder(value, name, into, depth + 1);
  }
}

export function isSlackMethod(method: string): boolean {
  if (!known) {
    known = new Set(NEWER_METHODS);
    namesUnder(new SlackAPIClient("xoxb-fake-slack-names"), "", known, 0);
  }
  return known.has(method);
}
