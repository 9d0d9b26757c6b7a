import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { parseSlackRequest } from "../src/inbound/parseSlackRequest";
import { controlClock } from "./support/clock";
import { mentionDelivery, newWorkspace, shardStub } from "./support/coordinator";
import { outboxRows } from "./support/outboxRows";
import { useFakeSlack } from "./support/useFakeSlack";
import { Shard } from "./worker";

const slack = useFakeSlack();

describe("an invalid delivery setting", () => {
  it("pauses delivery, not recording: the event is accepted and stored, nothing is sent, the alarm looks again a minute later", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    const parsed = parseSlackRequest(delivery.body, { contentType: "application/json", retryNum: null, retryReason: null });
    if (parsed.kind !== "inbound") throw new Error(parsed.kind);
    const errors = vi.spyOn(console, "error");

    // This shard's own env carries the bad value (in a deployment, the whole Worker's would).
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = new Shard(state, { ...env, LEASE_MS: "soon" } as unknown as ConstructorParameters<typeof Shard>[1]);
      const result = shard.ingest(parsed.inbound);
      await shard.alarm?.();
      return { result, alarmAt: await state.storage.getAlarm() };
    });

    expect(outcome.result).toMatchObject({ verdict: "accepted", enqueued: 1 });
    expect(await outboxRows(shardStub(team))).toEqual([
      expect.objectContaining({ status: "pending", attempts: 0, claim_token: null }),
    ]);
    expect(slack().calls).toHaveLength(0);
    expect(outcome.alarmAt).toBeGreaterThanOrEqual(clock.now() + 60_000);
    expect(errors.mock.calls.map(([line]) => String(line)).find((line) => line.includes("delivery paused"))).toContain(
      '"setting":"LEASE_MS"',
    );
  });
});
