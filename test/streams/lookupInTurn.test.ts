import { describe, expect, it } from "vitest";
import { countedAnswer } from "../support/countedAnswer";
import { problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

const answer = countedAnswer(
  "lookup in turn",
  Array.from({ length: 120 }, (_, i) => `w${i} `),
  { STREAM_MAX_CHARS: "250" },
);
// Slack asks the lost start's first lookup to wait a second (Tier 3), as under chaos.
const scenario: Scenario = {
  ...answer.scenario,
  prepare: (fake) => answer.scenario.prepare?.(fake.fail({ method: "conversations.replies" }, { status: 429, retryAfter: 1 }, 1)),
};

describe("a lost start's lookup answered 429", () => {
  it("waits for its turn inside the attempt, as the reply's other calls do: the retry after the attempt died finds the start", async () => {
    answer.reset();
    const run = await runAnswer(scenario, { at: 0, fault: "died" });
    expect(problemsOf(scenario, run)).toEqual([]);
    // The attempt that died, and one retry: the 429 did not end it (without the wait: a third run).
    expect(answer.runs).toHaveLength(2);
    expect(run.calls.slice(0, 4)).toEqual(["chat.startStream", "conversations.replies", "conversations.replies", "auth.test"]);
  });
});
