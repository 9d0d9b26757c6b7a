import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import { threadOf } from "../load/mentions";

/** What the fake Web API saw for one event's thread. */
export interface ThreadEffects {
  /** chat.postMessage calls into the thread that Slack performed (answered or not), in arrival order. */
  posts: ServedCall[];
  /** chat.update calls that Slack would have performed on a message posted into the thread. */
  updates: ServedCall[];
  /** Every call tied to the thread, failed ones included. */
  calls: ServedCall[];
}

/**
 * Groups the fake's calls by the event thread they belong to: a reply is a chat.postMessage
 * with `thread_ts` = the mention's ts; an update targets the `ts` the fake answered that post
 * with, or — when that answer was lost — the message `threadTsOf` finds in the thread.
 */
export function effectsByThread(
  calls: readonly ServedCall[],
  threadTsOf: (channel: string, ts: string) => string | undefined = () => undefined,
): Map<string, ThreadEffects> {
  const threads = new Map<string, ThreadEffects>();
  const postedIn = new Map<string, string>();
  const entry = (thread: string) => {
    let effects = threads.get(thread);
    if (!effects) {
      effects = { posts: [], updates: [], calls: [] };
      threads.set(thread, effects);
    }
    return effects;
  };
  for (const call of calls) {
    if (call.method !== "chat.postMessage" || !call.channel || !call.threadTs) continue;
    const effects = entry(threadOf(call.channel, call.threadTs));
    effects.calls.push(call);
    if (!call.applied) continue;
    effects.posts.push(call);
    if (call.answerTs) postedIn.set(threadOf(call.channel, call.answerTs), threadOf(call.channel, call.threadTs));
  }
  for (const call of calls) {
    if (call.method !== "chat.update" || !call.channel || !call.ts) continue;
    const postedInto = threadTsOf(call.channel, call.ts);
    const thread = postedIn.get(threadOf(call.channel, call.ts)) ?? (postedInto ? threadOf(call.channel, postedInto) : undefined);
    if (!thread) continue;
    const effects = entry(thread);
    effects.calls.push(call);
    if (call.applied) effects.updates.push(call);
  }
  return threads;
}
