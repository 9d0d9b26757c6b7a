import type { ShownMessage } from "../record/replyRecord";
import { lengthOf, shownLength } from "../record/sealing";

/** One step of cutting a reply's messages back: one deleted, or one cut back to its first `chars` characters. */
export type CutStep = { op: "delete"; ts: string } | { op: "cut"; ts: string; chars: number };

/**
 * How a reply's messages come to show exactly their first `at` characters again (a retry's text
 * differs from there on), in the order it is done, from the last message back: each message that
 * starts at or after `at` is deleted, the one `at` falls inside is cut back to end there, and those
 * before it stay. A sealed message is only ever cut whole: a retry's text is matched against it as
 * a whole (replay.ts), so `at` never falls inside it.
 */
export function cutPlan(messages: readonly ShownMessage[], at: number): CutStep[] {
  const steps: CutStep[] = [];
  let start = shownLength(messages);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const end = start;
    start -= lengthOf(message);
    if (end <= at) break;
    steps.push(start >= at ? { op: "delete", ts: message.ts } : { op: "cut", ts: message.ts, chars: at - start });
  }
  return steps;
}
