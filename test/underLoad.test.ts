import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseSlackRequest } from "../src/inbound/parseSlackRequest";
import type { IngestResult } from "../src/shard/api";
import { IMMEDIATE_IN_FLIGHT_MAX } from "../src/shard/Shard";
import { mentionDelivery, newWorkspace, shardStub } from "./support/coordinator";
import { outboxRows } from "./support/outboxRows";
import { useFakeSlack } from "./support/useFakeSlack";
import { Shard } from "./worker";

const slack = useFakeSlack();

async function mentionInbound(team: string) {
  const { delivery } = await mentionDelivery(team);
  const parsed = parseSlackRequest(delivery.body, { contentType: "application/json", retryNum: null, retryReason: null });
  if (parsed.kind !== "inbound") throw new Error(parsed.kind);
  return parsed.inbound;
}

describe("under load", () => {
  it("with the most immediate attempts in flight, a new delivery's row skips its own and waits unleased for the sweep", async () => {
    const team = newWorkspace();
    const inbounds = await Promise.all(Array.from({ length: IMMEDIATE_IN_FLIGHT_MAX + 1 }, () => mentionInbound(team)));
    // Every reply hangs, and nothing can settle between these synchronous ingests: the first
    // IMMEDIATE_IN_FLIGHT_MAX rows are leased to their immediate attempts, the next one is not.
    slack().fail({ method: "chat.postMessage" }, { hang: true }, IMMEDIATE_IN_FLIGHT_MAX);
    const results = await runInDurableObject(shardStub(team), (_, state) => {
      const shard = new Shard(state, env as unknown as ConstructorParameters<typeof Shard>[1]);
      // Single-workspace mode records synchronously (no installation to look up).
      return inbounds.map((inbound) => (shard.ingest(inbound) as IngestResult).verdict);
    });
    expect(results).toEqual(Array(IMMEDIATE_IN_FLIGHT_MAX + 1).fill("accepted"));

    const rows = await outboxRows(shardStub(team));
    const last = rows.find((row) => row.idempotency_key === `${inbounds.at(-1)!.dedupeKey}:run:event:app_mention`);
    expect(rows).toHaveLength(IMMEDIATE_IN_FLIGHT_MAX + 1);
    expect(last).toMatchObject({ status: "pending", attempts: 0, claim_token: null });
    expect(rows.filter((row) => row.claim_token !== null)).toHaveLength(IMMEDIATE_IN_FLIGHT_MAX);
    // The hung attempts die with the instance instead of settling during later tests.
    await abortAllDurableObjects();
  });
});
