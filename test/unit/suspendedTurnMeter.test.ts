import { describe, expect, it } from "vitest";
import type { Courier } from "../../src/delivery/courier";
import { deliverClaimed } from "../../src/delivery/deliverClaimed";
import { RunSleeping } from "../../src/platform/deliveryErrors";
import { type InvocationMeter, InvocationMeters } from "../../src/platform/invocationMeter";
import type { ClaimedRow } from "../../src/recording/outbox";

// A suspended run gives its turn back (postponements.ts): the thread's next turn goes as the work of
// the attempt's invocation, on its meter — as a turn that settles lets the next go (deliverClaimed.ts) —
// not on the meter of whichever invocation began last.

const THREAD = "C1:1765000000.000100";

const sleepingRun: ClaimedRow = {
  idempotency_key: "Ev1:reply",
  workspace: "T1",
  payload: "{}",
  rate_key: null,
  attempts: 0,
  created_at: 0,
  turn: THREAD,
  effect: { type: "run", inbound: {} } as unknown as ClaimedRow["effect"],
};

describe("a suspended run's released turn", () => {
  it("lets the thread's next turn go on its attempt's meter, not the latest invocation's", async () => {
    const meters = new InvocationMeters(100, "T1/0");
    const attempts = meters.current;
    // An ingest began while the run was out: the latest invocation's meter is another.
    meters.invoked();
    expect(meters.current).not.toBe(attempts);
    const ended: { conversation: string; key: string; meter?: InvocationMeter }[] = [];
    const courier = {
      shard: "T1/0",
      meters,
      delivery: { concurrency: 6 },
      retryAfters: { blockedUntil: () => undefined },
      events: { emit() {} },
      leases: { during: (_key: string, _token: string, attempt: () => Promise<void>) => attempt() },
      // No click answered its wait (asked of `parts.waits` once the shard's parts hold the waits).
      parts: { waits: { answeredFor: () => false }, turns: { suspended: { release: () => THREAD } } },
      outbox: {
        waits: { answeredFor: () => false },
        postpone: () => true,
      },
      perform: () => Promise.reject(new RunSleeping("nap", Date.now() + 60_000)),
      wakeAt() {},
      turnEnded: (conversation: string, key: string, meter?: InvocationMeter) => ended.push({ conversation, key, meter }),
    } as unknown as Courier;

    await deliverClaimed(courier, "lease-1", [sleepingRun], 1, attempts);

    expect(ended).toHaveLength(1);
    expect(ended[0]?.conversation).toBe(THREAD);
    expect(ended[0]?.meter).toBe(attempts);
  });
});
