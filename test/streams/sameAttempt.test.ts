import { describe, expect, it } from "vitest";
import { RECOVERIES_PER_ATTEMPT } from "../../src/app/streams/replyMessages";
import { countedAnswer } from "../support/countedAnswer";
import { type AnswerRun, problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

/**
 * A stream call whose outcome is unknown (a 5xx, a timeout, a reset) is recovered in the same
 * attempt, as a retry's first act would recover it: the attempt keeps what it sent and goes on,
 * instead of ending and replaying the listener from the start (under chaos, a streamed answer
 * needed a dozen attempts so). Counted: the listener's runs, the calls after the fault, the messages.
 */

/** Each run of the listener, with how many chat.startStream calls Slack had refused as it began. */
const answer = countedAnswer(
  "same attempt",
  Array.from({ length: 120 }, (_, i) => `w${i} `),
  { STREAM_MAX_CHARS: "250" },
  (slack) => slack.callsTo("chat.startStream").filter((call) => call.outcome !== "ok").length,
);
const { scenario } = answer;

async function answered(...faults: Parameters<typeof runAnswer>[1][]): Promise<AnswerRun> {
  answer.reset();
  const run = await runAnswer(scenario, ...faults);
  expect(problemsOf(scenario, run)).toEqual([]);
  return run;
}

const messagesOf = (run: AnswerRun) => run.slack.messagesIn(run.channel, run.thread).length;

describe("a stream call of unknown outcome, recovered in the same attempt", () => {
  it("an append refused 500: its message closed at what it showed (stop, update), the text goes on in a new one; the listener runs once", async () => {
    const clean = await answered();
    const at = clean.calls.indexOf("chat.appendStream");
    const run = await answered({ at, fault: "refused" });
    expect(answer.runs).toHaveLength(1);
    expect(run.calls.slice(at, at + 4)).toEqual(["chat.appendStream", "chat.stopStream", "chat.update", "chat.startStream"]);
    expect(messagesOf(run)).toBe(messagesOf(clean) + 1);
  });

  it("the recovery's chat.update refused too: sent again at once (it sets the checkpointed text, idempotent); the listener runs once", async () => {
    const clean = await answered();
    const at = clean.calls.indexOf("chat.appendStream");
    const run = await answered({ at, fault: "refused" }, { at: at + 2, fault: "refused" });
    expect(answer.runs).toHaveLength(1);
    expect(run.calls.slice(at, at + 5)).toEqual([
      "chat.appendStream",
      "chat.stopStream",
      "chat.update",
      "chat.update",
      "chat.startStream",
    ]);
  });

  it("a start whose answer was lost is found in the thread and streamed into: no second start for its text, no extra message", async () => {
    const clean = await answered();
    const run = await answered({ at: 0, fault: "lost" });
    expect(answer.runs).toHaveLength(1);
    expect(run.calls.slice(0, 4)).toEqual(["chat.startStream", "conversations.replies", "auth.test", "chat.appendStream"]);
    expect(run.slack.callsTo("chat.startStream")).toHaveLength(clean.slack.callsTo("chat.startStream").length);
    expect(messagesOf(run)).toBe(messagesOf(clean));
  });

  it("the final stop refused: stopped again and its blocks set in place (stop, update, update), the listener runs once", async () => {
    const clean = await answered();
    const at = clean.calls.lastIndexOf("chat.stopStream");
    const run = await answered({ at, fault: "refused" });
    expect(answer.runs).toHaveLength(1);
    expect(run.calls.slice(at)).toEqual(["chat.stopStream", "chat.stopStream", "chat.update", "chat.update"]);
  });

  it(`Slack failing on: at most ${RECOVERIES_PER_ATTEMPT} recoveries in an attempt, then it ends and the retry goes on`, async () => {
    const failing = RECOVERIES_PER_ATTEMPT + 2;
    const down: Scenario = {
      ...scenario,
      prepare: (fake) => scenario.prepare?.(fake.fail({ method: "chat.startStream" }, { status: 500 }, failing)),
    };
    answer.reset();
    const run = await runAnswer(down);
    expect(problemsOf(down, run)).toEqual([]);
    // The first attempt met RECOVERIES_PER_ATTEMPT + 1 refused starts (each looked for, none found); the retry the rest, and finished.
    expect(answer.runs).toEqual([0, RECOVERIES_PER_ATTEMPT + 1]);
    const lookups = RECOVERIES_PER_ATTEMPT + 2;
    expect(run.calls.slice(0, 2 * lookups + 1)).toEqual([
      ...Array.from({ length: lookups }, () => ["chat.startStream", "conversations.replies"]).flat(),
      "chat.startStream",
    ]);
  });
});
