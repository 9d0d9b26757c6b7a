import { describe, expect, it } from "vitest";
import type { ShardPart } from "../../src/parts/part";

// What makes a part (`npm run typecheck` checks this file): any object, its hooks typed as the hubs
// call them. A part with none of them — its tools alone, as uncertain posts' — is one as it is.
class ToolsOnly implements ShardPart {
  readonly lookups = new Map<string, number>();
}

// @ts-expect-error — a hook under its name with another type does not compile.
const misTyped: ShardPart = { prune: (now: string) => now.length };

describe("a shard part's hooks", () => {
  it("are optional: a part with none is called for none of them", () => {
    const part: ShardPart = new ToolsOnly();
    expect([part.recorded, part.wakeAt, part.prune, part.installationGone]).toEqual([undefined, undefined, undefined, undefined]);
    expect(typeof misTyped.prune).toBe("function");
  });
});
