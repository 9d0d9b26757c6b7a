import { describe, expect, it, vi } from "vitest";
import { LAYOUT_DELAY_MS } from "../../src/rpc/bucketLayouts";
import { controlClock } from "../support/clock";
import { bucketsApi as buckets, newWorkspace, receiptsByBucket, retriedMention } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

type Layouts = { buckets: number; next: { buckets: number; effective_at: string } | null; layouts: unknown[] };

describe("online resharding (PUT /admin/workspaces/{id}/buckets)", () => {
  it("1 → 4 → 2 while the same events are redelivered across the changes: each event is recorded once and answered once", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const batch = async (n: number) => Promise.all(Array.from({ length: n }, () => retriedMention(team)));
    const sendAll = async (events: Awaited<ReturnType<typeof batch>>, how: "send" | "redeliver") => {
      for (const event of events) expect(await event[how]()).toBe(200);
    };

    const first = await batch(8);
    await sendAll(first, "send");
    expect(await receiptsByBucket(team, 4)).toEqual([8, 0, 0, 0]);

    // To 4 buckets: effective in the future, within 60 s of the PUT.
    const put = await buckets(team, { method: "PUT", body: JSON.stringify({ buckets: 4 }) });
    expect(put.status).toBe(200);
    const four = (await put.json()) as Layouts;
    expect(four.buckets).toBe(1);
    expect(four.next?.buckets).toBe(4);
    const effectiveIn = Date.parse(four.next!.effective_at) - clock.now();
    expect(effectiveIn).toBeGreaterThan(0);
    expect(effectiveIn).toBeLessThanOrEqual(60_000);
    await sendAll(first, "redeliver"); // Slack's immediate retries, before the change
    clock.advance(LAYOUT_DELAY_MS + 5_000);

    const second = await batch(8);
    await sendAll(second, "send");
    await sendAll(first, "redeliver"); // Slack's 1-minute retries, after the change
    const afterFour = await receiptsByBucket(team, 4);
    expect(afterFour.reduce((a, b) => a + b)).toBe(16);
    expect(afterFour.filter((n) => n > 0).length, JSON.stringify(afterFour)).toBeGreaterThan(1); // the new events spread out

    // To 2 buckets, and every event so far redelivered once more after that change too.
    const two = (await (await buckets(team, { method: "PUT", body: JSON.stringify({ buckets: 2 }) })).json()) as Layouts;
    expect(two.next?.buckets).toBe(2);
    await sendAll(second, "redeliver");
    clock.advance(LAYOUT_DELAY_MS + 5_000);
    const third = await batch(8);
    await sendAll(third, "send");
    await sendAll([...first, ...second, ...third], "redeliver");

    const finalCounts = await receiptsByBucket(team, 4);
    expect(finalCounts.reduce((a, b) => a + b)).toBe(24);
    // The third batch went to buckets 0 and 1 only: 2 and 3 hold exactly what they held after the second.
    expect(finalCounts.slice(2)).toEqual(afterFour.slice(2));
    expect((await (await buckets(team)).json()) as Layouts).toMatchObject({ buckets: 2, next: null });

    // Each event answered exactly once, in its own thread.
    const threads = [...first, ...second, ...third].map((event) => event.ts).sort();
    const replies = () =>
      slack()
        .callsTo("chat.postMessage")
        .filter((call) => call.outcome === "ok");
    await vi.waitFor(() => expect(replies()).toHaveLength(24), { timeout: 10_000 });
    expect(
      replies()
        .map((call) => String(call.body.thread_ts))
        .sort(),
    ).toEqual(threads);
  });

  it("refuses what is not a bucket count, and a PUT of the count in force adds nothing", async () => {
    const team = newWorkspace();
    for (const body of ["{}", '{"buckets": 0}', '{"buckets": 2.5}', '{"buckets": 257}', "not json"]) {
      expect((await buckets(team, { method: "PUT", body })).status).toBe(400);
    }
    const same = (await (await buckets(team, { method: "PUT", body: '{"buckets": 1}' })).json()) as Layouts;
    expect(same).toMatchObject({ buckets: 1, next: null });
    expect(same.layouts).toHaveLength(1); // the count in force, recorded as the first layout
  });
});
