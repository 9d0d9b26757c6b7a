import { describe, expect, it } from "vitest";
import { memoryLedger } from "../../src/app/streams/record/checkpoint";
import { ReplyRecord, type ShownMessage } from "../../src/app/streams/record/replyRecord";
import { cutPlan } from "../../src/app/streams/recover/cutPlan";
import { kept, sealed } from "../support/shownMessages";

/** The plan for `at`, done on a reply's record as StreamMessages.cut does it (without Slack): each message's text after it. */
function cutTexts(messages: readonly ShownMessage[], at: number): string[] {
  const record = new ReplyRecord(memoryLedger(), "stream #0", { messages: messages.map((m) => ({ ...m })), chunks: 0 });
  for (const step of cutPlan(record.messages, at)) {
    const message = record.messages.find((m) => m.ts === step.ts)!;
    if (step.op === "delete") record.removed(message);
    else record.cutTo(message, step.chars);
  }
  return record.messages.map((m) => m.text);
}

describe("cutting a reply back to its first `at` characters (cutPlan)", () => {
  const two = [kept("1", "Hello "), kept("2", "world")];

  it("inside the last message: it is cut back to end there", () => {
    expect(cutPlan(two, 8)).toEqual([{ op: "cut", ts: "2", chars: 2 }]);
    expect(cutTexts(two, 8)).toEqual(["Hello ", "wo"]);
  });

  it("at a message's start: it and those after it are deleted, the one before untouched", () => {
    expect(cutPlan(two, 6)).toEqual([{ op: "delete", ts: "2" }]);
    expect(cutTexts(two, 6)).toEqual(["Hello "]);
  });

  it("inside an earlier message: the later ones are deleted, last first, then it is cut", () => {
    const three = [...two, kept("3", "!!")];
    expect(cutPlan(three, 3)).toEqual([
      { op: "delete", ts: "3" },
      { op: "delete", ts: "2" },
      { op: "cut", ts: "1", chars: 3 },
    ]);
    expect(cutTexts(three, 3)).toEqual(["Hel"]);
  });

  it("at or past what shows: nothing to do; at 0: every message goes", () => {
    expect(cutPlan(two, 11)).toEqual([]);
    expect(cutPlan(two, 50)).toEqual([]);
    expect(cutPlan(two, 0)).toEqual([
      { op: "delete", ts: "2" },
      { op: "delete", ts: "1" },
    ]);
    expect(cutTexts(two, 0)).toEqual([]);
  });

  it("sealed messages are counted by their length and deleted whole", () => {
    const messages = [sealed("1", "abcdef"), sealed("2", "ghij"), kept("3", "klm")];
    expect(cutPlan(messages, 10)).toEqual([{ op: "delete", ts: "3" }]);
    expect(cutPlan(messages, 6)).toEqual([
      { op: "delete", ts: "3" },
      { op: "delete", ts: "2" },
    ]);
    expect(cutPlan(messages, 12)).toEqual([{ op: "cut", ts: "3", chars: 2 }]);
    expect(cutTexts(messages, 12)).toEqual(["", "", "kl"]);
    expect(cutTexts(messages, 6)).toEqual([""]);
  });
});
