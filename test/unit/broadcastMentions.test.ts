import { describe, expect, it } from "vitest";
import { BroadcastGuard, withoutBroadcasts } from "../../src/app/streams/pipe/broadcastMentions";
import type { StreamAppendArguments } from "../../src/app/streams/streamArguments";

/** A guard over a target that records each append. */
function guarded() {
  const appended: StreamAppendArguments[] = [];
  const guard = new BroadcastGuard({ append: async (args) => void appended.push(args), sent: async () => {}, capped: false });
  return { guard, appended };
}

describe("a model's broadcasts shown as words", () => {
  it("makes every broadcast form plain, and leaves other angle brackets and mentions alone", () => {
    expect(withoutBroadcasts("<!channel> <!here|here> <!everyone> <!subteam^S01|@ops> <!subteam^S02>")).toBe(
      "@channel @here @everyone @ops @group",
    );
    expect(withoutBroadcasts("<@U123> <#C1> <https://x.test|x> a < b > c <!date^1|d>")).toBe(
      "<@U123> <#C1> <https://x.test|x> a < b > c <!date^1|d>",
    );
  });

  it("holds back only what may still become a broadcast, and shows it as it is when the text ends", async () => {
    const { guard, appended } = guarded();
    await guard.append({ markdown_text: "a <" });
    await guard.append({ markdown_text: "!he" });
    await guard.append({ markdown_text: "re> b <x" });
    await guard.append({ markdown_text: " <!ev" });
    await guard.end();
    expect(appended.map((args) => args.markdown_text)).toEqual(["a ", "@here b <x", " ", "<!ev"]);
  });

  it("lets a held `<!` go before a chunk, and past 128 characters without a `>`", async () => {
    const { guard, appended } = guarded();
    await guard.append({ markdown_text: "x <!cha" });
    await guard.append({ chunks: [{ type: "task_update", id: "task-1", title: "t", status: "in_progress" }] });
    expect(appended.map((args) => args.markdown_text ?? "chunk")).toEqual(["x ", "<!cha", "chunk"]);
    const long = `<!${"a".repeat(130)}`;
    await guard.append({ markdown_text: long });
    expect(appended.at(-1)).toEqual({ markdown_text: long });
  });
});
