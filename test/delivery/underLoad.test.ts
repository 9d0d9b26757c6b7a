import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IMMEDIATE_IN_FLIGHT_MAX, IMMEDIATE_WAITING_MAX } from "../../src/delivery/deliveryLoop";
import { parseSlackRequest } from "../../src/inbound/parseSlackRequest";
import type { IngestResult } from "../../src/rpc/shard";
import { mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { workspaceShardIn } from "../support/shardIn";
import { settled } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";
import { Shard } from "../worker";

const slack = useFakeSlack();

async function mentionInbound(team: string) {
  const { envelope, delivery } = await mentionDelivery(team);
  const parsed = parseSlackRequest(delivery.body, { contentType: "application/json", retryNum: null, retryReason: null });
  if (parsed.kind !== "inbound") throw new Error(parsed.kind);
  return { inbound: parsed.inbound, channel: String((envelope.event as { channel: string }).channel) };
}

describe("under load", () => {
  it("with the most immediate attempts in flight, a new delivery's row waits for one, leased, and starts when one ends", async () => {
    const team = newWorkspace();
    const mentions = await Promise.all(Array.from({ length: IMMEDIATE_IN_FLIGHT_MAX + 1 }, () => mentionInbound(team)));
    const first = mentions[0]!;
    const last = mentions.at(-1)!;
    // The first reply fails at once (its attempt ends, counted); every other one hangs. Nothing
    // can settle between these synchronous ingests: the first IMMEDIATE_IN_FLIGHT_MAX rows start
    // their immediate attempts, the next one waits in line.
    slack()
      .fail({ method: "chat.postMessage", channel: first.channel }, { reset: true })
      .fail({ method: "chat.postMessage" }, { hang: true }, IMMEDIATE_IN_FLIGHT_MAX);
    const counts = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state);
      const firstSettled = settled(shard);
      // Single-workspace mode records synchronously (no installation to look up).
      const results = mentions.map(({ inbound }) => (shard.recording.ingest(inbound) as IngestResult).verdict);
      expect(results).toEqual(Array(IMMEDIATE_IN_FLIGHT_MAX + 1).fill("accepted"));
      const before = shard.delivery.ready!.immediate.counts();
      // The first attempt's end lets the waiting row start — long before its lease runs out, so
      // no alarm or sweep is involved. (Its call then queues for one of the six connections.)
      expect(await firstSettled).toBe("retried");
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { before, after: shard.delivery.ready!.immediate.counts() };
    });
    expect(counts).toEqual({
      before: { inFlight: IMMEDIATE_IN_FLIGHT_MAX, waiting: 1 },
      after: { inFlight: IMMEDIATE_IN_FLIGHT_MAX, waiting: 0 },
    });

    const rows = await outboxRows(shardStub(team));
    expect(rows).toHaveLength(IMMEDIATE_IN_FLIGHT_MAX + 1);
    const lastRow = rows.find((row) => row.idempotency_key === `${last.inbound.dedupeKey}:run:event:app_mention`);
    expect(lastRow).toMatchObject({ status: "pending", attempts: 0 });
    expect(lastRow?.claim_token).not.toBeNull();
    const firstRow = rows.find((row) => row.idempotency_key === `${first.inbound.dedupeKey}:run:event:app_mention`);
    expect(firstRow).toMatchObject({ status: "pending", attempts: 1, claim_token: null });
    // The hung attempts die with the instance instead of settling during later tests.
    await abortAllDurableObjects();
  });

  it("with the line of waiting rows full too, a new delivery's row is written unleased, for the sweep", async () => {
    const team = newWorkspace();
    const count = IMMEDIATE_IN_FLIGHT_MAX + IMMEDIATE_WAITING_MAX + 1;
    const mentions = await Promise.all(Array.from({ length: count }, () => mentionInbound(team)));
    const last = mentions.at(-1)!;
    // Every reply hangs: no attempt ends, so the line never moves during these ingests.
    slack().fail({ method: "chat.postMessage" }, { hang: true }, IMMEDIATE_IN_FLIGHT_MAX);
    const results = await runInDurableObject(shardStub(team), (_, state) => {
      const shard = new Shard(state, env as unknown as ConstructorParameters<typeof Shard>[1]);
      return mentions.map(({ inbound }) => (shard.ingest(inbound) as IngestResult).verdict);
    });
    expect(results.filter((verdict) => verdict === "accepted")).toHaveLength(count);
    const rows = await outboxRows(shardStub(team));
    expect(rows.filter((row) => row.claim_token !== null)).toHaveLength(count - 1);
    const lastRow = rows.find((row) => row.idempotency_key === `${last.inbound.dedupeKey}:run:event:app_mention`);
    expect(lastRow).toMatchObject({ status: "pending", attempts: 0, claim_token: null });
    await abortAllDurableObjects();
  });
});
