import { appMention, blockActions, eventCallback, messageTs, signedEvent, signedInteraction } from "../../src/testing/deliveries";
import type { FakeSlackServer, ServedCall } from "../fakeSlack/fakeSlackServer";
import { highResNow } from "../load/clock";
import { SIGNING_SECRET, type Subject } from "../subjects";
import type { WaitPlan } from "./waits";

// The durable-waits scenario's traffic (bench/scenarios/waits.ts): signed mentions and clicks, and
// what the fake Slack saw of them, by thread.

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const threadKey = (channel: string, threadTs: string) => `${channel}|${threadTs}`;
const CHANNEL = "CWAITS";
const WAIT_BLOCK = /^durable_wait:/;

/** Settings as `npm start` serves the demo (AGENT_SESSIONS=true), with a fast model. */
export function demoSettings(plan: Pick<WaitPlan, "countIntervalMs">): Record<string, string> {
  return { AGENT_SESSIONS: "true", DEMO_COUNT_INTERVAL_MS: String(plan.countIntervalMs), DEMO_CONFIRM_TIMEOUT_MS: "600000" };
}

export interface Mentioned {
  thread: string;
  threadTs: string;
  sentAt: number;
  ackedAt: number | null;
}

export async function mention(subject: Subject, team: string, text: string): Promise<Mentioned> {
  const event = appMention({ channel: CHANNEL, text: `<@U0000BOT> ${text}` });
  const threadTs = String(event.ts);
  const delivery = await signedEvent(eventCallback(event, { teamId: team }), { secret: SIGNING_SECRET });
  const sentAt = highResNow();
  let ackedAt: number | null = null;
  try {
    const response = await fetch(new URL("/slack/events", subject.runtime.url), {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await response.arrayBuffer();
    if (response.ok) ackedAt = highResNow();
  } catch {
    // Unacked: counted as such.
  }
  return { thread: threadKey(CHANNEL, threadTs), threadTs, sentAt, ackedAt };
}

/** The fake's calls in a thread: posts and starts name the thread; stops and appends name the stream's ts. */
export function callsIn(fake: FakeSlackServer, thread: string): ServedCall[] {
  const starts = new Set<string>();
  const found: ServedCall[] = [];
  for (const call of fake.calls) {
    if (call.outcome !== "ok" || !call.channel) continue;
    const inThread = call.threadTs !== undefined && threadKey(call.channel, call.threadTs) === thread;
    if (inThread && call.method === "chat.startStream" && call.answerTs) starts.add(call.answerTs);
    if (inThread || (call.ts !== undefined && starts.has(call.ts))) found.push(call);
  }
  return found;
}

export function firstCall(fake: FakeSlackServer, thread: string, method: string, after = 0): ServedCall | undefined {
  return callsIn(fake, thread).find((call) => call.method === method && call.receivedAt >= after);
}

/** Polls (bounded) until `done` holds; returns whether it did. */
export async function until(done: () => boolean, maxWaitMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + maxWaitMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

/** Session statuses the fake was sent, by thread: the last one wins. */
export function sessionStatuses(fake: FakeSlackServer): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const call of fake.fake.calls) {
    if (call.method !== "agents.sessions.setStatus" || call.outcome !== "ok") continue;
    const { channel_id, thread_ts, status } = call.body as Record<string, unknown>;
    if (typeof channel_id === "string" && typeof thread_ts === "string" && typeof status === "string")
      statuses.set(threadKey(channel_id, thread_ts), status);
  }
  return statuses;
}

/** The question the demo posted in `thread`, as a click on its `value` button needs it. */
export function questionIn(fake: FakeSlackServer, thread: string) {
  const [channel, threadTs] = thread.split("|") as [string, string];
  for (const message of fake.fake.messagesIn(channel, threadTs)) {
    const blocks = typeof message.blocks === "string" ? (JSON.parse(message.blocks) as unknown) : message.blocks;
    if (!Array.isArray(blocks)) continue;
    const actions = (blocks as Array<{ type?: string; block_id?: string; elements?: Array<Record<string, string>> }>).find(
      (block) => block.type === "actions" && WAIT_BLOCK.test(block.block_id ?? ""),
    );
    if (actions) return { channel, threadTs, ts: message.ts, text: message.text, actions };
  }
  return undefined;
}

/** A click on the question's `value` button, signed, as Slack sends it (test/example/agentWaits.test.ts). */
export async function click(subject: Subject, team: string, thread: string, value: "yes" | "no", fake: FakeSlackServer) {
  const question = questionIn(fake, thread);
  if (!question) return { sentAt: highResNow(), ackedAt: null };
  const button = question.actions.elements?.find((element) => element.value === value);
  const { channel, threadTs, ts } = question;
  const payload = {
    ...blockActions({ teamId: team, actionId: button?.action_id ?? "count_confirm", channel, messageTs: ts }),
    container: { type: "message", message_ts: ts, channel_id: channel, thread_ts: threadTs },
    message: { type: "message", ts, thread_ts: threadTs, text: question.text },
    actions: [
      { type: "button", action_id: button?.action_id, block_id: question.actions.block_id, value, action_ts: messageTs() },
    ],
  };
  const delivery = await signedInteraction(payload, { secret: SIGNING_SECRET });
  const sentAt = highResNow();
  try {
    const response = await fetch(new URL("/slack/interactivity", subject.runtime.url), {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await response.arrayBuffer();
    return { sentAt, ackedAt: response.ok ? highResNow() : null };
  } catch {
    return { sentAt, ackedAt: null };
  }
}
