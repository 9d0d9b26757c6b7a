import { describe, expect, it } from "vitest";
import { openFenceAt } from "../../src/app/streams/rotate/textCuts";
import { timedMention } from "../support/timedStream";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const CHANNEL = "C0CUTS";
const THREAD = "1700000000.000400";

/** Streams `tokens` with STREAM_MAX_CHARS at 200, a flush per token (each sent before the next comes, with `paced`); the thread's messages. */
async function streamedIn200s(tokens: string[], paced = false) {
  await timedMention(
    async ({ sayStream }) => {
      const stream = sayStream({ buffer_size: 1 });
      for (const token of tokens) {
        await stream.append({ markdown_text: token });
        if (paced) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await stream.stop();
    },
    { channel: CHANNEL, thread: THREAD },
    { vars: { STREAM_MAX_CHARS: "200" } },
  );
  return slack().messagesIn(CHANNEL, THREAD);
}

describe("where a streamed answer is cut into messages", () => {
  it("an emoji at the STREAM_MAX_CHARS boundary stays whole (no U+FFFD at either side)", async () => {
    const text = `${"a".repeat(199)}😀${"b".repeat(100)}`;
    const messages = await streamedIn200s([text]);
    expect(messages.length).toBe(2);
    expect(messages.map((m) => m.text).join("")).toBe(text);
    expect(messages.every((m) => m.text.isWellFormed())).toBe(true);
  });

  it("words stay whole, and a code block that would be split moves whole to the next message", async () => {
    const block = "```ts\nconst answer = 42;\nconsole.log(answer);\n```\n";
    const tokens = [
      ..."Here is the answer you asked for, in words and then in code. ".repeat(3).split(/(?<= )/),
      "\n",
      block,
      "Done.",
    ];
    const messages = await streamedIn200s(tokens);
    expect(messages.map((m) => m.text).join("")).toBe(tokens.join(""));
    expect(messages.length).toBe(2);
    expect(messages[1]!.text.startsWith("```ts")).toBe(true);
    for (const { text } of messages) {
      expect(openFenceAt("", text, text.length)).toBeUndefined();
      // Every cut is at a space or a line break.
      expect(text === messages.at(-1)!.text || /[ \n]$/.test(text)).toBe(true);
    }
  });

  it("a code block streamed token by token that opens late in a message starts the next one: no message leaves it open", async () => {
    const code = ["```ts\n", "const a = 1;\n", "const b = 2;\n", "console.log(a + b);\n", "```\n"];
    const tokens = ["Some words first. ".repeat(9), "\n", ...code, "Done."];
    const messages = await streamedIn200s(tokens, true);
    expect(messages.map((m) => m.text).join("")).toBe(tokens.join(""));
    expect(messages.length).toBe(2);
    for (const { text } of messages) expect(openFenceAt("", text, text.length)).toBeUndefined();
  });

  it("a code block longer than a message: its closing fence stays with its code, and the text after it is not taken into a code block", async () => {
    const code = Array.from({ length: 30 }, (_, i) => `line ${i} of code\n`);
    const after = "After the block, some more words to say here. ".repeat(6).split(/(?<= )/);
    const tokens = ["Intro.\n", "```\n", ...code, "```\n", ...after];
    const messages = await streamedIn200s(tokens);
    expect(messages.map((m) => m.text).join("")).toBe(tokens.join(""));
    const closing = messages.find((m) => m.text.includes("line 29 of code"))!;
    expect(closing.text).toContain("line 29 of code\n```\n");
    // No later message opens a code block: the closing fence is not read as an opener.
    for (const { text } of messages.slice(messages.indexOf(closing) + 1)) expect(text).not.toContain("```");
  });
});
