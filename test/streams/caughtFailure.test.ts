import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { RECOVERIES_PER_ATTEMPT } from "../../src/app/streams/replyMessages";
import { problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

const TOKENS = Array.from({ length: 40 }, (_, i) => `w${i} `);
const BLOCKS = [{ type: "section", text: { type: "mrkdwn", text: "mark_done" } }];

/** Each attempt's number, and what its listener caught. */
let attempts: Array<{ attempt: number; caught: string[] }> = [];

/** A listener that swallows every failure of its stream, as a Bolt listener's try/catch would. */
const app = new App().event("app_mention", async ({ sayStream, attempt }) => {
  const seen = { attempt, caught: [] as string[] };
  attempts.push(seen);
  const streamer = sayStream({ buffer_size: 16 });
  for (const token of TOKENS) {
    try {
      await streamer.append({ markdown_text: token });
    } catch (error) {
      seen.caught.push(String(error));
    }
  }
  try {
    await streamer.stop({ blocks: BLOCKS as never });
  } catch (error) {
    seen.caught.push(String(error));
  }
});

const scenario: Scenario = { name: "caught", app, text: TOKENS.join(""), blocksMark: "mark_done", makes: ["chat.appendStream"] };

describe("a stream call's failure inside the listener's try/catch", () => {
  it("ends the attempt past the catch: the run is retried and the reply completes once, not left half-written", async () => {
    attempts = [];
    const clean = await runAnswer(scenario);
    expect(problemsOf(scenario, clean)).toEqual([]);
    attempts = [];
    // The append refused, then each call recovering from it in the attempt (its chat.stopStream) until
    // the attempt's recoveries are spent (app/streams/replyMessages.ts): the attempt ends there.
    const at = clean.calls.indexOf("chat.appendStream");
    const refused = Array.from({ length: RECOVERIES_PER_ATTEMPT + 1 }, (_, i) => ({ at: at + i, fault: "refused" as const }));
    const run = await runAnswer(scenario, ...refused);
    expect(run.calls.slice(at, at + refused.length)).toEqual([
      "chat.appendStream",
      ...Array.from({ length: RECOVERIES_PER_ATTEMPT }, () => "chat.stopStream"),
    ]);
    expect(problemsOf(scenario, run)).toEqual([]);
    // The failure ended the first attempt past the listener's catch (it never saw it); a second attempt finished the reply.
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(attempts[0]!.caught).toEqual([]);
    expect(attempts[1]!.caught).toEqual([]);
    expect(run.counts).toMatchObject({ pending: 0, parked: 0 });
  });
});
