import type { RunArgs } from "../lib";

/** The longest reminder the demo takes: a day. */
export const REMINDER_MAX_SECONDS = 86_400;

/** "remind me in S seconds to X" in a message's text: S and X, or undefined when it asks something else. */
export function reminderRequest(text: string | undefined): { seconds: number; what: string } | undefined {
  const asked = /\bremind me in (\d+) seconds? to (.+)$/is.exec(text ?? "");
  return asked ? { seconds: Number(asked[1]), what: asked[2]!.trim() } : undefined;
}

/**
 * A reminder, durably: the run sleeps S seconds — no isolate, lease or delivery slot held; a
 * restart or a deploy in between changes nothing — then posts X in the thread, once.
 */
export async function remindLater(
  { say, sleep }: Pick<RunArgs, "say" | "sleep">,
  threadTs: string,
  { seconds, what }: { seconds: number; what: string },
): Promise<void> {
  if (seconds > REMINDER_MAX_SECONDS) {
    await say({ text: `I remind you within a day (${REMINDER_MAX_SECONDS} seconds) at most.`, thread_ts: threadTs });
    return;
  }
  await sleep("reminder", seconds * 1000);
  await say({ text: `Reminder: ${what}`, thread_ts: threadTs });
}
