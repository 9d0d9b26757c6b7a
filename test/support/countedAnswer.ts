import { App } from "../../src/app/App";
import type { FakeSlack } from "../../src/testing/fakeSlack";
import type { Scenario } from "./faultMatrix";

/** A counted answer: its scenario for the fault matrix's harness, and what each run of its listener saw as it began. */
export interface CountedAnswer {
  scenario: Scenario;
  /** One entry per run of the listener (`seen` of the fake Slack then, 0 without one); cleared by `reset`. */
  runs: number[];
  reset(): void;
}

/**
 * A listener that streams `tokens` one append each and stops with final blocks (`mark_done`), and
 * counts its runs: how many attempts an answer took under faults, as a number, not a time.
 */
export function countedAnswer(
  name: string,
  tokens: readonly string[],
  vars: Record<string, string>,
  seen: (slack: FakeSlack) => number = () => 0,
): CountedAnswer {
  let slack: FakeSlack | undefined;
  const counted: CountedAnswer = {
    runs: [],
    reset: () => {
      counted.runs = [];
    },
    scenario: {
      name,
      app: new App().event("app_mention", async ({ sayStream }) => {
        counted.runs.push(slack ? seen(slack) : 0);
        const streamer = sayStream();
        for (const token of tokens) await streamer.append({ markdown_text: token });
        await streamer.stop({ blocks: [{ type: "section", text: { type: "mrkdwn", text: "mark_done" } }] as never });
      }),
      text: tokens.join(""),
      blocksMark: "mark_done",
      vars,
      makes: ["chat.startStream", "chat.appendStream", "chat.stopStream"],
      prepare: (fake) => {
        slack = fake;
      },
    },
  };
  return counted;
}

/** Chaos' streamed answer and settings (bench/chaos/chaosPlan.ts): "1 2 … 120" in messages of 300 characters, a chain of two. */
export function chaosCount(name: string): CountedAnswer {
  const tokens = Array.from({ length: 120 }, (_, i) => (i === 0 ? "1" : ` ${i + 1}`));
  return countedAnswer(name, tokens, { STREAM_MAX_CHARS: "300" });
}
