import { abortAllDurableObjects, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TurnPolicy } from "../../src/app/listeners";
import { turnOf } from "../../src/app/listeners/turns";
import { BURST_MESSAGES_MAX } from "../../src/parts/turns";
import { channelMessage, eventCallback, messageTs, signedEvent, slackId } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { thread } from "../support/turnThreads";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 41, point 5: `turns: "merge"` — a user's quick messages in a thread, one run, one answer.
// Driven through the Worker; the test app's "burst " listener says "heard N: TEXT | TEXT …".

const slack = useFakeSlack();
const OTHER = "U0000OTHER";
const QUIET_MS = 1_500;
const ALL_THREE = "heard 3: burst one | burst two | burst three";

/** A thread in a channel of its own, and a way to send a user's message there through the Worker (or Slack's retry of one). */
function burstThread() {
  const team = newWorkspace();
  const channel = slackId("C");
  const thread_ts = messageTs();
  const stub = shardStub(team);
  const send = async (text: string, options: { user?: string; eventId?: string; ts?: string; retryNum?: number } = {}) => {
    const event = { ...channelMessage({ text, channel, user: options.user, ts: options.ts }), thread_ts };
    const envelope = eventCallback(event, { teamId: team, eventId: options.eventId });
    const response = await deliver(await signedEvent(envelope, signedBy({ retryNum: options.retryNum })));
    expect(response.status).toBe(200);
  };
  const replies = () =>
    slack()
      .callsTo("chat.postMessage")
      .map((call) => call.body.text);
  /** Fires the shard's alarm and, when told, waits (real time, briefly) for the reply `last` it leads to. */
  const alarm = async (last?: string) => {
    await runDurableObjectAlarm(stub);
    if (last !== undefined) await slack().waitFor("chat.postMessage", (call) => call.body.text === last);
  };
  return { stub, send, replies, alarm };
}

describe('turns: "merge" — a burst of messages answered once', () => {
  it("three quick messages of one user: one run with all three, one reply, once the quiet period after the last has passed", async () => {
    const clock = controlClock();
    const { stub, send, replies, alarm } = burstThread();
    await send("burst one");
    clock.advance(500);
    await send("burst two");
    clock.advance(500);
    await send("burst three");
    // One row for the three, not run: it is due a quiet period after the last message.
    const [row, ...others] = await outboxRows(stub);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ status: "pending", attempts: 0, claim_token: null, next_attempt_at: clock.now() + QUIET_MS });
    clock.advance(QUIET_MS - 1);
    await alarm();
    expect(replies()).toEqual([]);
    clock.advance(1);
    await alarm(ALL_THREE);
    expect(replies()).toEqual([ALL_THREE]);
    expect(await outboxRows(stub)).toEqual([]);
  });

  it("Slack's retry of the second message is a duplicate: not taken in twice", async () => {
    const clock = controlClock();
    const { send, replies, alarm } = burstThread();
    await send("burst one");
    const second = { eventId: slackId("Ev"), ts: messageTs() };
    await send("burst two", second);
    await send("burst two", { ...second, retryNum: 1 });
    await send("burst three");
    clock.advance(QUIET_MS);
    await alarm(ALL_THREE);
    expect(replies()).toEqual([ALL_THREE]);
  });

  it("another user's message in the quiet period is a turn of its own, after the burst's: never merged into it", async () => {
    const clock = controlClock();
    const { stub, send, replies, alarm } = burstThread();
    await send("burst one");
    await send("burst mine", { user: OTHER });
    await send("burst two");
    expect(await outboxRows(stub)).toHaveLength(2);
    clock.advance(QUIET_MS);
    await alarm("heard 1: burst mine");
    expect(replies()).toEqual(["heard 2: burst one | burst two", "heard 1: burst mine"]);
  });

  it("durable: the shard killed in the quiet period, twice — the burst is still answered once, with every message", async () => {
    const clock = controlClock();
    const { stub, send, replies, alarm } = burstThread();
    await send("burst one");
    await send("burst two");
    await abortAllDurableObjects();
    await send("burst three");
    await abortAllDurableObjects();
    expect(await outboxRows(stub)).toHaveLength(1);
    clock.advance(QUIET_MS);
    await alarm(ALL_THREE);
    expect(replies()).toEqual([ALL_THREE]);
  });

  it(`a burst takes in at most ${BURST_MESSAGES_MAX} messages: the next starts a turn of its own, answered after it`, async () => {
    const clock = controlClock();
    const { send, replies, alarm } = burstThread();
    const texts = Array.from({ length: BURST_MESSAGES_MAX + 1 }, (_, i) => `burst ${i + 1}`);
    for (const text of texts) await send(text);
    clock.advance(QUIET_MS);
    await alarm(`heard 1: burst ${BURST_MESSAGES_MAX + 1}`);
    expect(replies()).toEqual([
      `heard ${BURST_MESSAGES_MAX}: ${texts.slice(0, BURST_MESSAGES_MAX).join(" | ")}`,
      `heard 1: burst ${BURST_MESSAGES_MAX + 1}`,
    ]);
  });

  it("a message after the burst was answered starts a new turn", async () => {
    const clock = controlClock();
    const { send, replies, alarm } = burstThread();
    await send("burst one");
    clock.advance(QUIET_MS);
    await alarm("heard 1: burst one");
    await send("burst again");
    clock.advance(QUIET_MS);
    await alarm("heard 1: burst again");
    expect(replies()).toEqual(["heard 1: burst one", "heard 1: burst again"]);
  });

  it("quietMs is the turn's quiet period, 1,500 ms unless told, kept within 0 … 60,000; a wrong shape does not compile", () => {
    const { reply } = thread(newWorkspace());
    const quietOf = (policy: TurnPolicy) => turnOf(reply("burst"), policy)?.quietMs;
    expect([quietOf("merge"), quietOf({ policy: "merge" }), quietOf({ policy: "merge", quietMs: 0 })]).toEqual([1_500, 1_500, 0]);
    expect([quietOf({ policy: "merge", quietMs: 600_000 }), quietOf({ policy: "merge", quietMs: -1 })]).toEqual([60_000, 0]);
    // @ts-expect-error: a quiet period is a number of milliseconds
    expect(quietOf({ policy: "merge", quietMs: "2s" })).toBe(1_500);
  });
});
