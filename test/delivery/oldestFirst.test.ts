import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { IMMEDIATE_IN_FLIGHT_MAX, IMMEDIATE_WAITING_MAX } from "../../src/delivery/deliveryLoop";
import type { ShardStorage } from "../../src/recording/shardStorage";
import { appMention, slackId } from "../../src/testing/deliveries";
import { newWorkspace } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43: a shard past its capacity answers its events in the order they came. Rows an ingest
// left to the sweep (the line of immediate attempts full) used to wait for the sweep's share of
// the six connections while every newer row that found room in the line went ahead of them.

const slack = useFakeSlack();
const shardOf = (team: string) => env.SHARD.get(env.SHARD.idFromName(`${team}/0`));

/** Rows left behind while the line is full. */
const BEHIND = 3;

describe("past the line's capacity, the oldest rows go first", () => {
  it("once rows were left to the sweep, a newer event's row does not go ahead of them into the line", {
    timeout: 60_000,
  }, async () => {
    const team = newWorkspace();
    const full = IMMEDIATE_IN_FLIGHT_MAX + IMMEDIATE_WAITING_MAX;
    const mentions = Array.from({ length: full + BEHIND + 1 }, () => eventDelivery(team, appMention({ channel: slackId("C") })));
    const newest = mentions.pop()!;
    // The first attempts answer after a while; every later one hangs, so the line stays as the test left it.
    slack()
      .fail({ method: "chat.postMessage" }, { delayMs: 20 }, IMMEDIATE_IN_FLIGHT_MAX)
      .fail({ method: "chat.postMessage" }, { hang: true }, 2 * full);
    const seen = await runInDurableObject(shardOf(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: `${team}/0`, settings: { SLACK_PACING: "false" } });
      // No alarm: the sweep would take the rows left behind itself, and this test is about the line.
      (shard as unknown as { storage: ShardStorage }).storage.wakeUps.arm = () => {};
      const immediate = shard.delivery.ready!.immediate;
      const unleased = () =>
        state.storage.sql
          .exec<{ key: string }>(
            "SELECT idempotency_key AS key FROM outbox WHERE done_at IS NULL AND claim_token IS NULL ORDER BY created_at, idempotency_key",
          )
          .toArray()
          .map((row) => row.key.split(":")[0]);
      for (const inbound of mentions) shard.recording.ingest(inbound);
      const whenFull = { line: immediate.counts(), unleased: unleased().length };
      // The first attempts end: the line starts as many of its waiting rows, and has room again.
      await vi.waitFor(() => expect(shard.delivery.counters.delivered).toBe(IMMEDIATE_IN_FLIGHT_MAX), { timeout: 20_000 });
      const withRoom = immediate.counts();
      shard.recording.ingest(newest);
      return { whenFull, withRoom, after: immediate.counts(), unleased: unleased() };
    });
    expect(seen.whenFull).toEqual({
      line: { inFlight: IMMEDIATE_IN_FLIGHT_MAX, waiting: IMMEDIATE_WAITING_MAX },
      unleased: BEHIND,
    });
    expect(seen.withRoom).toEqual({
      inFlight: IMMEDIATE_IN_FLIGHT_MAX,
      waiting: IMMEDIATE_WAITING_MAX - IMMEDIATE_IN_FLIGHT_MAX,
    });
    // The newest row did not take the place in line: it waits behind the older ones, which go first once the line
    // has emptied (test/unit/oldestFirst.test.ts), as the sweep's claims take them, oldest first.
    const dedupeKeys = [...mentions.slice(-BEHIND), newest].map((inbound) => inbound.dedupeKey);
    expect(seen.unleased).toEqual(dedupeKeys);
    expect(seen.after).toEqual(seen.withRoom);
    await abortAllDurableObjects();
  });
});
