import { describe, expect, it } from "vitest";
import { wordsOf } from "../../src/app/streams/recover/lostStart";

describe("a lost start's words, as Slack's reads may show them", () => {
  it("Slack's escaping of &, <, > changes nothing", () => {
    expect(wordsOf("a &amp;&amp; &lt;b&gt; 0 ")).toBe(wordsOf("a && <b> 0 "));
  });

  it("markdown rendered as Slack's mrkdwn changes nothing", () => {
    expect(wordsOf("*bold* and _it_")).toBe(wordsOf("**bold** and *it*"));
  });

  it("a posted answer without text shows an ellipsis: the same as no text", () => {
    expect(wordsOf("…")).toBe(wordsOf(""));
  });

  it("another answer's text differs, in any script", () => {
    expect(wordsOf("Another run's answer")).not.toBe(wordsOf("w0 "));
    expect(wordsOf("1 2")).not.toBe(wordsOf("1"));
    expect(wordsOf("日本語")).not.toBe(wordsOf("中文"));
  });
});
