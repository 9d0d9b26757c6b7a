import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { LAYOUT_DELAY_MS, type LayoutRouting } from "../../src/rpc/bucketLayouts";
import {
  appMention,
  blockActions,
  channelMessage,
  eventCallback,
  messageTs,
  signedEvent,
  signedInteraction,
  slackId,
} from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { bucketStub, bucketsApi, deliver, newWorkspace, receiptsByBucket, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** The buckets of the first test's workspaces. */
const BUCKETS = 8;
/** Each delivery is followed by reading every bucket's receipts twice: more than the default 5 s on a busy machine. */
const SLOW = { timeout: 30_000 };

/** One delivery as Slack sends it; each further `send` is Slack's retry of it (the same event_id or trigger_id). */
interface Sendable {
  name: string;
  send(): Promise<number>;
}

function event(team: string, name: string, body: Record<string, unknown>): Sendable {
  const envelope = eventCallback(body, { teamId: team });
  let sends = 0;
  return {
    name,
    send: async () => {
      const retry = sends++ > 0 ? { retryNum: sends - 1, retryReason: "http_timeout" } : {};
      return (await deliver(await signedEvent(envelope, signedBy(retry)))).status;
    },
  };
}

/** A thread begun now in a channel of its own: the deliveries Slack sends about it. */
function thread(team: string) {
  const channel = slackId("C");
  const rootTs = messageTs();
  const click = (messageTs: string): Sendable => {
    const payload = blockActions({ teamId: team, actionId: "stop_answer", channel, messageTs });
    payload.message = { ...(payload.message as Record<string, unknown>), thread_ts: rootTs };
    return {
      name: `click on ${messageTs}`,
      send: async () => (await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity")).status,
    };
  };
  return {
    channel,
    /** The root mention and its `message` twin (one message, two events). */
    root: () => [
      event(team, "root", appMention({ channel, ts: rootTs })),
      event(team, "root's message twin", channelMessage({ channel, ts: rootTs, text: "ping <@U0000BOT>" })),
    ],
    reply: () => event(team, "reply", appMention({ channel, ts: messageTs(), threadTs: rootTs })),
    started: () =>
      event(team, "assistant_thread_started", {
        type: "assistant_thread_started",
        assistant_thread: { user_id: "U0000USER", context: {}, channel_id: channel, thread_ts: rootTs },
        event_ts: messageTs(),
      }),
    stop: () =>
      event(team, "agent_session_stopped", {
        type: "agent_session_stopped",
        channel,
        thread_ts: rootTs,
        user: "U0000USER",
        streaming_message_ts: [messageTs()],
        event_ts: messageTs(),
      }),
    /** A click on a button of a message in the thread (the root unless told). */
    click: (on = rootTs) => click(on),
  };
}

/** Sends `delivery` and tells which of the workspace's `buckets` recorded it: null when none did (a duplicate). */
async function recordedIn(team: string, delivery: Sendable, buckets = 4): Promise<number | null> {
  const before = await receiptsByBucket(team, buckets);
  expect(await delivery.send(), delivery.name).toBe(200);
  const after = await receiptsByBucket(team, buckets);
  const grown = after.flatMap((count, bucket) => (count > before[bucket]! ? [bucket] : []));
  expect(grown.length, `${delivery.name} recorded by one shard at most`).toBeLessThanOrEqual(1);
  return grown[0] ?? null;
}

/** Makes `team` a workspace of `buckets` shards routed by `routing` since long ago (as if set by an earlier version for `message`). */
async function layoutSinceLongAgo(team: string, buckets: number, routing: LayoutRouting): Promise<void> {
  const zero = bucketStub(team, 0);
  await zero.changeBuckets(buckets, 1);
  await runInDurableObject(zero, (_, state) => {
    state.storage.sql.exec("UPDATE bucket_layouts SET effective_at = 1, routing = ? WHERE buckets = ?", routing, buckets);
  });
}

type Layouts = {
  buckets: number;
  routing: LayoutRouting;
  next: { buckets: number; routing: LayoutRouting } | null;
  layouts: unknown[];
};

async function putBuckets(team: string, buckets: number): Promise<Layouts> {
  const response = await bucketsApi(team, { method: "PUT", body: JSON.stringify({ buckets }) });
  expect(response.status).toBe(200);
  return (await response.json()) as Layouts;
}

describe("conversation routing: every delivery of one thread is recorded by one shard", () => {
  it(
    `a thread's root and its twin, replies, assistant_thread_started, agent_session_stopped and clicks in it: one shard of ${BUCKETS}, and threads spread`,
    SLOW,
    async () => {
      const threadBuckets = new Set<number | null>();
      for (let i = 0; i < 6; i++) {
        const team = newWorkspace();
        await layoutSinceLongAgo(team, BUCKETS, "conversation");
        const conversation = thread(team);
        const reply = conversation.reply();
        const deliveries = [...conversation.root(), conversation.started(), reply, conversation.reply(), conversation.click()];
        deliveries.push(conversation.stop(), conversation.reply());
        const buckets: (number | null)[] = [];
        for (const delivery of deliveries) buckets.push(await recordedIn(team, delivery, BUCKETS));
        expect(buckets[0]).not.toBeNull();
        expect(buckets, deliveries.map((d) => d.name).join(", ")).toEqual(deliveries.map(() => buckets[0]));
        threadBuckets.add(buckets[0]!);
      }
      expect(threadBuckets.size).toBeGreaterThan(1);
    },
  );

  it(
    "1 → 4 → 2 buckets: threads go on in the shard they began in, and every retry of what was recorded finds its receipt",
    SLOW,
    async () => {
      const clock = controlClock();
      const team = newWorkspace();
      const sent: Sendable[] = [];
      const expectIn = async (bucket: number, deliveries: Sendable[]) => {
        for (const delivery of deliveries) {
          sent.push(delivery);
          expect(await recordedIn(team, delivery), delivery.name).toBe(bucket);
        }
      };

      // Begun under one bucket (the default, no layout): all in bucket 0.
      const early = Array.from({ length: 4 }, () => thread(team));
      for (const conversation of early) await expectIn(0, [...conversation.root(), conversation.reply(), conversation.started()]);

      const four = await putBuckets(team, 4);
      expect(four).toMatchObject({ buckets: 1, next: { buckets: 4, routing: "conversation" } });
      for (const delivery of sent) expect(await recordedIn(team, delivery)).toBeNull(); // Slack's immediate retries
      clock.advance(LAYOUT_DELAY_MS + 5_000);

      // After the change, threads begun before it go on with their roots, in bucket 0.
      for (const conversation of early) await expectIn(0, [conversation.reply(), conversation.click(), conversation.stop()]);
      // A thread begun after it is recorded, as a whole, by the shard its root went to.
      const later = Array.from({ length: 4 }, () => thread(team));
      const laterBuckets: number[] = [];
      for (const conversation of later) {
        const [root, twin] = conversation.root();
        sent.push(root!);
        const bucket = (await recordedIn(team, root!))!;
        expect(bucket).not.toBeNull();
        laterBuckets.push(bucket);
        await expectIn(bucket, [twin!, conversation.reply(), conversation.started(), conversation.click(), conversation.stop()]);
      }

      expect((await putBuckets(team, 2)).next).toMatchObject({ buckets: 2, routing: "conversation" });
      clock.advance(LAYOUT_DELAY_MS + 5_000);
      // Threads begun under 4 buckets stay where they are, in buckets 2 and 3 too (which 2 buckets no longer use).
      for (const [i, conversation] of later.entries()) {
        await expectIn(laterBuckets[i]!, [conversation.reply(), conversation.click(), conversation.stop()]);
      }
      const last = thread(team);
      const [lastRoot, lastTwin] = last.root();
      sent.push(lastRoot!);
      const lastBucket = (await recordedIn(team, lastRoot!))!;
      expect([0, 1]).toContain(lastBucket);
      await expectIn(lastBucket, [lastTwin!, last.reply(), last.stop()]);

      // Slack's later retries of everything, after both changes: each finds its receipt.
      for (const delivery of sent) expect(await recordedIn(team, delivery), delivery.name).toBeNull();
      // Each mention answered once: a root and two replies in each early and later thread, a root and a reply in the last.
      const mentions = sent.filter((d) => d.name === "root" || d.name === "reply").length;
      expect(mentions).toBe(4 * 3 + 4 * 3 + 2);
      // (Counted in this test's channels: the first test's runs may still be answering.)
      const channels = new Set([...early, ...later, last].map((conversation) => conversation.channel));
      const replies = () =>
        slack()
          .callsTo("chat.postMessage")
          .filter((call) => call.outcome === "ok" && call.body.text === "reply" && channels.has(String(call.body.channel)));
      await vi.waitFor(() => expect(replies()).toHaveLength(mentions), { timeout: 10_000 });
    },
  );

  it("a workspace routed by message moves by a PUT of its own count: a retry of a reply recorded before finds its receipt, and the thread goes on with its root", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    await layoutSinceLongAgo(team, 4, "message");
    expect(await (await bucketsApi(team)).json()).toMatchObject({ buckets: 4, routing: "message" });
    const conversation = thread(team);
    const [root] = conversation.root();
    const rootBucket = await recordedIn(team, root!);
    // By message, a reply goes by its own message: some reply lands elsewhere than its root.
    let strayed: Sendable | undefined;
    for (let i = 0; i < 12 && !strayed; i++) {
      const reply = conversation.reply();
      if ((await recordedIn(team, reply)) !== rootBucket) strayed = reply;
    }
    expect(strayed, "a reply recorded by another shard than its root's").toBeDefined();

    const moved = await putBuckets(team, 4);
    expect(moved.next).toMatchObject({ buckets: 4, routing: "conversation" });
    expect((await putBuckets(team, 4)).layouts).toHaveLength(moved.layouts.length); // the same again adds nothing
    clock.advance(LAYOUT_DELAY_MS + 5_000);
    expect(await (await bucketsApi(team)).json()).toMatchObject({ buckets: 4, routing: "conversation", next: null });

    expect(await recordedIn(team, strayed!)).toBeNull(); // Slack's retry after the move: deduped
    for (const delivery of [conversation.reply(), conversation.click(), conversation.stop()]) {
      expect(await recordedIn(team, delivery), delivery.name).toBe(rootBucket);
    }
  });
});
