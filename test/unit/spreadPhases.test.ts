import { describe, expect, it } from "vitest";
import type { Sample } from "../../bench/load/openLoop";
import { ReplyLedger, replyTally, routedAtOf, spreadPhases } from "../../bench/report/spreadPhases";

/** An event thread whose message `ts` is `atMs` (seconds.microseconds, as Slack and the load write it). */
const thread = (channel: string, atMs: number, n: number) =>
  `${channel}|${Math.floor(atMs / 1000)}.${String(n).padStart(6, "0")}`;

const T0 = Date.UTC(2026, 11, 6, 13, 0, 40);

function sample(atMs: number, n: number, status = 200, ackMs = 10): Sample {
  return { thread: thread("CS0", atMs, n), scheduledAt: atMs, settledAt: atMs + ackMs, status };
}

const post = (thr: string, receivedAt: number, applied = true) => {
  const [channel, threadTs] = thr.split("|");
  return { method: "chat.postMessage", channel, threadTs, applied, receivedAt };
};

describe("npm run spread's report", () => {
  it("reads an event's routing time from its thread's ts, as the edge does", () => {
    expect(routedAtOf("CS0|1796562040.000017")).toBe(1796562040000);
  });

  it("splits the events by the layout in force at their ts: before the spread, and under each new count", () => {
    // Signed (its ts) before 2 buckets took effect, sent after: routed by its ts, so under 1 bucket.
    const signedEarly: Sample = { ...sample(T0 + 60_000, 6), scheduledAt: T0 + 68_000, settledAt: T0 + 68_010 };
    const before = [sample(T0, 1), sample(T0 + 30_000, 2, 503, 2000), signedEarly];
    const afterRise = [sample(T0 + 70_000, 3), sample(T0 + 80_000, 4)];
    const afterSecond = [sample(T0 + 190_000, 5)];
    const ledger = new ReplyLedger();
    ledger.add(post(before[0]!.thread, T0 + 900));
    ledger.add(post(signedEarly.thread, T0 + 68_100));
    ledger.add(post(afterRise[0]!.thread, T0 + 70_000 + 110));
    ledger.add(post(afterRise[1]!.thread, T0 + 80_000 + 60));
    ledger.add(post(afterSecond[0]!.thread, T0 + 190_000 + 20));
    const layouts = [
      { buckets: 2, effectiveAt: T0 + 66_000, reason: "busy", busy: 1.4 },
      { buckets: 4, effectiveAt: T0 + 186_000, reason: "busy", busy: 0.9 },
    ];

    const phases = spreadPhases([...afterSecond, ...before, ...afterRise], layouts, 1, (t) => ledger.firstReplyAt(t));

    expect(
      phases.map(({ buckets, reason, sent, acked, non2xx, undelivered }) => ({
        buckets,
        reason,
        sent,
        acked,
        non2xx,
        undelivered,
      })),
    ).toEqual([
      { buckets: 1, reason: "manual", sent: 3, acked: 2, non2xx: 1, undelivered: 0 },
      { buckets: 2, reason: "busy", sent: 2, acked: 2, non2xx: 0, undelivered: 0 },
      { buckets: 4, reason: "busy", sent: 1, acked: 1, non2xx: 0, undelivered: 0 },
    ]);
    // The first phase starts with the load, a later one when its layout took effect.
    expect(phases.map((phase) => phase.from)).toEqual([T0, T0 + 66_000, T0 + 186_000].map((at) => new Date(at).toISOString()));
    expect(phases[0]!.ack.p99).toBe(2000);
    // Reply: from the ack; lag: from the send, the ack included.
    expect(phases[0]!.reply.max).toBe(890);
    expect(phases[0]!.lag.max).toBe(900);
    expect(phases[1]!.reply.p99).toBe(100);
    expect(phases[1]!.busy).toBe(1.4);
  });

  it("counts a reply once per thread, an extra post as a duplicate, and a failed call as nothing", () => {
    const ledger = new ReplyLedger();
    const [a, b, c] = [sample(T0, 1), sample(T0, 2), sample(T0, 3, 503)];
    ledger.add(post(a.thread, T0 + 50));
    ledger.add(post(a.thread, T0 + 70));
    ledger.add(post(b.thread, T0 + 40, false));
    ledger.add({ method: "chat.update", channel: "CS0", threadTs: undefined, applied: true, receivedAt: T0 });
    ledger.add(post(c.thread, T0 + 90));

    expect(ledger.firstReplyAt(a.thread)).toBe(T0 + 50);
    expect(ledger.firstReplyAt(b.thread)).toBeUndefined();
    expect(ledger.duplicates()).toEqual({ events: 1, extraPosts: 1 });
    // b was acked and has no reply; c was refused (Slack retries it) yet recorded and replied to.
    expect(replyTally([a, b, c], (t) => ledger.firstReplyAt(t))).toEqual({ acked: 2, undelivered: 1, repliedUnacked: 1 });
  });
});
