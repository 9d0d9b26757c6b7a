import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { waitUntilSettled } from "../../src/testing";
import { controlClock } from "../support/clock";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub, watchStub } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** `teams`' replies delivered: each row settled, not only its call recorded by the fake Slack. */
async function delivered(...teams: string[]): Promise<void> {
  for (const team of teams) await waitUntilSettled({ shard: env.SHARD, workspace: team });
}

interface Overview {
  minutes: number;
  totals: {
    accepted: number;
    duplicates: number;
    delivered: number;
    ack: { p99: number | null };
    delivery: { p99: number | null };
  };
  series: Array<{ at: number; accepted: number }>;
  workspaces: Array<{ workspace: string; shards: number; accepted: number; outboxPending: number }>;
  shards: Array<{ shard: string; accepted: number; delivered: number; outboxPending: number; outboxParked: number }>;
  guard: { window_minutes: number };
  unreachable: string[];
}

describe("persistent metrics (one row per shard per minute)", () => {
  it("counts accepted, duplicate and delivered in memory, and writes the minute once it is over", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const mentions = await Promise.all([1, 2, 3].map(() => mentionDelivery(team)));
    for (const { delivery } of mentions) expect((await deliver(delivery)).status).toBe(200);
    expect((await deliver(mentions[0]!.delivery)).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(3));
    await delivered(team);

    // The minute in progress is visible live, and nothing is written yet.
    const live = await shardStub(team).metricsSince(0);
    expect(live.minutes).toEqual([]);
    expect(live.live?.counts).toMatchObject({ accepted: 3, duplicates: 1, delivered: 3, retried: 0, parked: 0 });
    expect(live.live?.ackMs.reduce((sum, n) => sum + n, 0)).toBe(4);

    // Once the minute is over, the alarm writes it: one row, with the outbox as it stands.
    const rowsBefore = (await shardStub(team).stats()).counters.rowsWritten;
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    const written = await shardStub(team).metricsSince(0);
    expect(written.live).toBeUndefined();
    expect(written.minutes).toHaveLength(1);
    const [minute] = written.minutes;
    expect(minute!.counts).toMatchObject({ accepted: 3, duplicates: 1, ignored: 0, delivered: 3 });
    expect(minute!.counts.rowsWritten).toBeGreaterThan(0);
    expect(minute!.deliveryMs.reduce((sum, n) => sum + n, 0)).toBe(3);
    expect(minute).toMatchObject({ depth: 0, oldestPendingAt: null });
    expect((await shardStub(team).stats()).counters.rowsWritten - rowsBefore).toBe(1);
    // And the watch now knows the shard.
    await vi.waitFor(async () => expect((await watchStub().shards(0)).map((s) => s.shard)).toContain(`${team}/0`));
  });

  it("a minute with only duplicates is written too: the shard's alarm is armed for the minute's end", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(1));
    await delivered(team);
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    // A later minute sees only Slack's retry of it: nothing to deliver, yet the minute is armed.
    clock.advance(120_000);
    expect((await deliver(delivery)).status).toBe(200);
    const minuteEnd = (Math.floor(clock.now() / 60_000) + 1) * 60_000;
    const alarm = await runInDurableObject(shardStub(team), (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBeLessThanOrEqual(minuteEnd);
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    const minutes = (await shardStub(team).metricsSince(0)).minutes;
    expect(minutes.at(-1)?.counts).toMatchObject({ accepted: 0, duplicates: 1 });
  });

  it("GET /admin/api/overview: the fleet's totals, series, workspaces and shards from the registry", async () => {
    const clock = controlClock();
    const [first, second] = [newWorkspace(), newWorkspace()];
    for (const team of [first, first, second]) expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(3));
    await delivered(first, second);
    clock.advance(60_000);
    for (const team of [first, second]) await runDurableObjectAlarm(shardStub(team));
    await vi.waitFor(async () => expect((await watchStub().shards(0)).length).toBeGreaterThanOrEqual(2));

    const response = await adminGet("/admin/api/overview?minutes=5");
    expect(response.status).toBe(200);
    const overview = (await response.json()) as Overview;
    const mine = overview.shards.filter((s) => s.shard === `${first}/0` || s.shard === `${second}/0`);
    expect(mine.map((s) => [s.shard, s.accepted, s.delivered, s.outboxPending, s.outboxParked])).toEqual([
      [`${first}/0`, 2, 2, 0, 0],
      [`${second}/0`, 1, 1, 0, 0],
    ]);
    expect(overview.workspaces.find((w) => w.workspace === first)).toMatchObject({ shards: 1, accepted: 2, outboxPending: 0 });
    expect(overview.totals.accepted).toBeGreaterThanOrEqual(3);
    expect(overview.totals.delivery.p99).not.toBeNull();
    expect(overview.series).toHaveLength(5);
    expect(overview.series.reduce((sum, point) => sum + point.accepted, 0)).toBe(overview.totals.accepted);
    expect(overview.guard.window_minutes).toBe(60);
    expect(overview.unreachable).toEqual([]);
  });

  it("each minute written carries the shard's SQLite size; the watch's registry and the overview's shard rows show it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const warnings = vi.spyOn(console, "warn");
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(1));
    await delivered(team);
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));

    const [minute] = (await shardStub(team).metricsSince(0)).minutes;
    expect(minute!.databaseSize).toBeGreaterThan(0);
    // The shard tells the watch its size with the minute (the storage alert is judged there).
    await vi.waitFor(async () =>
      expect((await watchStub().shards(0)).find((s) => s.shard === `${team}/0`)?.databaseSize).toBeGreaterThan(0),
    );
    const overview = (await (await adminGet("/admin/api/overview?minutes=5")).json()) as {
      shards: Array<{ shard: string; databaseSize: number | null }>;
    };
    const size = await runInDurableObject(shardStub(team), (_instance, state) => state.storage.sql.databaseSize);
    expect(overview.shards.find((s) => s.shard === `${team}/0`)?.databaseSize).toBe(size);
    // Far below STORAGE_ALERT_BYTES (8 GB by default): no storage alert.
    expect(warnings.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(":floppy_disk:"))).toEqual([]);
  });

  it("shows what alerts are about: the destinations failing now", async () => {
    const team = newWorkspace();
    slack().fail({ method: "chat.postMessage" }, { status: 500 }, 1);
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const failing = async () =>
      (
        (await (await adminGet("/admin/api/overview?minutes=5")).json()) as {
          alerts: { alertsSent: boolean; failing: unknown[] };
        }
      ).alerts;
    await vi.waitFor(async () =>
      expect((await failing()).failing).toContainEqual(
        expect.objectContaining({
          label: `chat.postMessage in ${team}`,
          failures: 1,
          lastError: "chat.postMessage: 500 http_500",
        }),
      ),
    );
    // No ALERT_WEBHOOK_URL in this project: alerts are only logged.
    expect((await failing()).alertsSent).toBe(false);
  });

  it("refuses a window outside 1 minute to 7 days, and needs the admin token", async () => {
    expect((await adminGet("/admin/api/overview?minutes=0")).status).toBe(400);
    expect((await adminGet("/admin/api/overview?minutes=10081")).status).toBe(400);
    expect((await adminGet("/admin/api/overview?minutes=5", null)).status).toBe(401);
  });
});
