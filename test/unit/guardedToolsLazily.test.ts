import { describe, expect, it } from "vitest";
import { AttemptEnding, guardedTools } from "../../src/app/run";
import { RunSleeping } from "../../src/platform/errors";

/** Thirty tools, as a run's arguments hold them, each read counted. */
function countedTools() {
  const reads = new Map<string, number>();
  const tools: Record<string, unknown> = {};
  for (let n = 0; n < 30; n++) {
    const name = `tool${n}`;
    const tool = async (value: string) => `${name}:${value}`;
    Object.defineProperty(tools, name, {
      enumerable: true,
      get: () => {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return tool;
      },
    });
  }
  const read = () => [...reads.values()].reduce((sum, n) => sum + n, 0);
  return { tools, reads, read };
}

describe("a run's tools are guarded as its code reads them", () => {
  it("guarding thirty tools reads (and wraps) none of them before the run asks for one", () => {
    const { tools, read } = countedTools();
    const guarded = guardedTools(tools, new AttemptEnding());
    expect(read()).toBe(0);
    expect(typeof guarded.tool7).toBe("function");
    expect(read()).toBe(1);
  });

  it("a tool read twice is the same guarded function, and it still answers", async () => {
    const { tools } = countedTools();
    const guarded = guardedTools(tools, new AttemptEnding()) as Record<string, (value: string) => Promise<string>>;
    expect(guarded.tool3).toBe(guarded.tool3);
    expect(await guarded.tool3?.("x")).toBe("tool3:x");
    expect(Object.keys(guarded)).toHaveLength(30);
  });

  it("what ends the attempt still ends it: the tool's promise never settles and the race ends with it", async () => {
    const ending = new AttemptEnding();
    const sleeping = new RunSleeping("nap", Date.now() + 60_000);
    const guarded = guardedTools(
      {
        sleep: async () => {
          throw sleeping;
        },
        event: { type: "message" },
      },
      ending,
    );
    expect(guarded.event).toEqual({ type: "message" });
    let caught = 0;
    const raced = ending.race(async () => {
      try {
        await guarded.sleep();
      } catch {
        caught++;
      }
    });
    await expect(raced).rejects.toBe(sleeping);
    expect(caught).toBe(0);
  });
});
