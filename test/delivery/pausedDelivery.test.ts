import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { parseSlackRequest } from "../../src/inbound/parseSlackRequest";
import { controlClock } from "../support/clock";
import { mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";
import { Shard } from "../worker";

const slack = useFakeSlack();

/** One mention ingested and swept by a shard whose env has `bad` on top; what was stored, sent and logged. */
async function ingestAndSweepWith(bad: Record<string, string>) {
  const clock = controlClock();
  const team = newWorkspace();
  const { delivery } = await mentionDelivery(team);
  const parsed = parseSlackRequest(delivery.body, { contentType: "application/json", retryNum: null, retryReason: null });
  if (parsed.kind !== "inbound") throw new Error(parsed.kind);
  const errors = vi.spyOn(console, "error");

  // This shard's own env carries the bad value (in a deployment, the whole Worker's would).
  const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
    const shard = new Shard(state, { ...env, ...bad } as unknown as ConstructorParameters<typeof Shard>[1]);
    const result = shard.ingest(parsed.inbound);
    await shard.alarm?.();
    return { result, alarmAt: await state.storage.getAlarm() };
  });
  const pausedLine = errors.mock.calls.map(([line]) => String(line)).find((line) => line.includes("delivery paused"));
  return { ...outcome, now: clock.now(), rows: await outboxRows(shardStub(team)), pausedLine };
}

describe("an invalid delivery setting", () => {
  it("pauses delivery, not recording: the event is accepted and stored, nothing is sent, the alarm looks again a minute later", async () => {
    const outcome = await ingestAndSweepWith({ LEASE_MS: "soon" });

    expect(outcome.result).toMatchObject({ verdict: "accepted", enqueued: 1 });
    expect(outcome.rows).toEqual([expect.objectContaining({ status: "pending", attempts: 0, claim_token: null })]);
    expect(slack().calls).toHaveLength(0);
    expect(outcome.alarmAt).toBeGreaterThanOrEqual(outcome.now + 60_000);
    expect(outcome.pausedLine).toContain('"setting":"LEASE_MS"');
  });

  it("one an effect kind reads itself (HANDLER_MAX_ATTEMPTS, the run kind's) pauses delivery the same way", async () => {
    const outcome = await ingestAndSweepWith({ HANDLER_MAX_ATTEMPTS: "zero" });

    expect(outcome.result).toMatchObject({ verdict: "accepted", enqueued: 1 });
    expect(outcome.rows).toEqual([expect.objectContaining({ status: "pending", attempts: 0, claim_token: null })]);
    expect(slack().calls).toHaveLength(0);
    expect(outcome.alarmAt).toBeGreaterThanOrEqual(outcome.now + 60_000);
    expect(outcome.pausedLine).toContain('"setting":"HANDLER_MAX_ATTEMPTS"');
  });
});
