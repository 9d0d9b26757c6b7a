import { describe, expect, it } from "vitest";
import { codePointFloor, openFenceAt, pieceLength } from "../../src/app/streams/rotate/textCuts";

/** Cuts `text` into messages of at most `max` characters, as the streamer does: a message cut is full, the rest goes on in a new one. */
function pieces(text: string, max: number): string[] {
  const messages = [""];
  for (let rest = text; rest !== ""; ) {
    const open = messages.at(-1)!;
    const n = pieceLength(open, rest, max - open.length);
    if (n === 0) messages.push("");
    else {
      messages[messages.length - 1] = open + rest.slice(0, n);
      rest = rest.slice(n);
      if (rest !== "") messages.push("");
    }
  }
  return messages.filter((m) => m !== "");
}

describe("textCuts", () => {
  it("never splits a surrogate pair: an emoji at the boundary moves whole to the next message", () => {
    const text = `${"a".repeat(199)}😀${"b".repeat(50)}`;
    expect(codePointFloor(text, 200)).toBe(199);
    const cut = pieces(text, 200);
    expect(cut.join("")).toBe(text);
    expect(cut.every((piece) => piece.isWellFormed())).toBe(true);
    expect(cut[1]!.startsWith("😀")).toBe(true);
  });

  it("emoji all the way: every message is well formed and the join is exact", () => {
    const text = "🙂".repeat(333);
    const cut = pieces(text, 201);
    expect(cut.join("")).toBe(text);
    expect(cut.every((piece) => piece.isWellFormed() && piece.length <= 201)).toBe(true);
  });

  it("prefers a line break, then a space, in the second half of the room; never splits a word that can move", () => {
    expect(pieceLength("", `${"x".repeat(120)} ${"y".repeat(40)}\n${"z".repeat(100)}`, 200)).toBe(162);
    expect(pieceLength("", `${"x".repeat(150)} ${"y".repeat(100)}`, 200)).toBe(151);
    // No boundary in the second half: cut at the room.
    expect(pieceLength("", `${"w ".repeat(20)}${"x".repeat(300)}`, 200)).toBe(200);
  });

  it("moves a code block that would be split to the next message whole", () => {
    const block = "```js\nconst a = 1;\nconst b = 2;\n```\n";
    const text = `${"intro ".repeat(25)}\n${block}after`;
    const cut = pieces(text, 170);
    expect(cut.join("")).toBe(text);
    expect(cut[0]!.endsWith("\n")).toBe(true);
    expect(cut[1]!.startsWith("```js")).toBe(true);
    for (const piece of cut) expect(openFenceAt("", piece, piece.length)).toBeUndefined();
  });

  it("a block opening right at a message's start after text already shown: the message is closed first (0)", () => {
    expect(pieceLength("shown so far\n", "```\ncode\ncode\ncode\n```\n", 10)).toBe(0);
  });

  it("a block opening in a message's last quarter starts the next message, though what came so far fits", () => {
    const before = "x".repeat(160);
    expect(pieceLength(before, "ok\n```\nco", 40)).toBe(3);
    // Early in a message it streams on where it is.
    expect(pieceLength("x".repeat(20), "ok\n```\nco", 180)).toBe(9);
    // A fresh message with the block at its start: nowhere better to go.
    expect(pieceLength("", "```\nco", 4)).toBe(4);
  });

  it("a block longer than a whole message is split at a line break, the only way left", () => {
    const code = `\`\`\`\n${"line of code\n".repeat(30)}\`\`\`\n`;
    const cut = pieces(code, 200);
    expect(cut.join("")).toBe(code);
    expect(cut.slice(0, -1).every((piece) => piece.endsWith("\n"))).toBe(true);
  });

  it("knows where a fence is open, counting whole fence lines only", () => {
    expect(openFenceAt("", "a\n```\nb\n", 8)).toBe(2);
    expect(openFenceAt("x\n```\n", "b\n", 2)).toBe(-1);
    expect(openFenceAt("", "a\n```\nb\n```\n", 12)).toBeUndefined();
    // Cut inside the fence's own line: not a fence yet.
    expect(openFenceAt("", "a\n``", 4)).toBeUndefined();
  });
});
