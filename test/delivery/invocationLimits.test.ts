import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { IMMEDIATE_IN_FLIGHT_MAX } from "../../src/delivery/deliveryLoop";
import { deliverLeased } from "../../src/delivery/sweep";
import { OPEN_CONNECTIONS_MAX } from "../../src/platform/connectionSlots";
import { newRow } from "../../src/recording/outboxRows";
import { appMention, slackId } from "../../src/testing/deliveries";
import { withFakeTimers } from "../support/concurrentAnswers";
import { newWorkspace } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { postMessage } from "../support/outboxRows";
import { shardIn, workspaceShardIn } from "../support/shardIn";
import { DELIVERY_TIMEOUT_MS, LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** A shard of its own for one test, named as its workspace's bucket 0 (it keeps its workspace's pace itself). */
const shardOf = (team: string) => env.SHARD.get(env.SHARD.idFromName(`${team}/0`));

describe("Cloudflare's per-invocation limits, met locally", () => {
  it("at most six calls wait for Slack's answer at once, even with 64 immediate attempts in flight", async () => {
    const team = newWorkspace();
    // One mention per channel: no pacing holds any of them back, so only the connection slots do.
    const mentions = Array.from({ length: IMMEDIATE_IN_FLIGHT_MAX }, () =>
      eventDelivery(team, appMention({ channel: slackId("C") })),
    );
    slack().fail({ method: "chat.postMessage" }, { delayMs: 20 }, mentions.length);
    await runInDurableObject(shardOf(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: `${team}/0` });
      let delivered = 0;
      const all = new Promise<void>((resolve) =>
        shard.delivery.events.subscribe((event) => {
          if (event.type === "delivered" && ++delivered === mentions.length) resolve();
        }),
      );
      for (const inbound of mentions) await shard.recording.ingest(inbound);
      expect(shard.delivery.ready?.immediate.counts()).toEqual({ inFlight: IMMEDIATE_IN_FLIGHT_MAX, waiting: 0 });
      await all;
    });
    const posts = slack().callsTo("chat.postMessage");
    expect(new Set(posts.map((call) => call.body.channel)).size).toBe(mentions.length);
    expect(posts).toHaveLength(mentions.length);
    expect(slack().mostInFlight).toBe(OPEN_CONNECTIONS_MAX);
  });

  it("a call that waited for a connection gets its whole timeout once it leaves", async () => {
    const team = newWorkspace();
    // Seven attempts at once, each its own (as seven ingests' are): six take the connections for
    // 0.7 of a timeout, the seventh leaves when the first comes back and takes as long again.
    const answerMs = 0.7 * DELIVERY_TIMEOUT_MS;
    slack().fail({ method: "chat.postMessage" }, { delayMs: answerMs }, OPEN_CONNECTIONS_MAX + 1);
    await withFakeTimers(() =>
      runInDurableObject(shardOf(team), async (_, state) => {
        const { outbox, loop } = shardIn(state, { name: `${team}/0` });
        const started = Date.now();
        const attempts = Array.from({ length: OPEN_CONNECTIONS_MAX + 1 }, (_, n) => {
          const lease = { token: crypto.randomUUID(), expiresAt: Date.now() + LEASE_MS };
          const rows = outbox.enqueue([newRow(`Ev-${n}:post`, team, postMessage(slackId("C")))], Date.now(), lease);
          return deliverLeased(loop.ready!.courier, lease.token, rows);
        });
        let done = false;
        const all = Promise.all(attempts).then(() => (done = true));
        while (!done) await vi.advanceTimersByTimeAsync(50);
        await all;
        // None timed out: the seventh was answered past a timeout from when it was made, within one from when it left.
        expect(loop.counters).toMatchObject({ delivered: OPEN_CONNECTIONS_MAX + 1, retried: 0, postponed: 0 });
        expect(slack().calls.at(-1)!.at - started).toBeGreaterThanOrEqual(answerMs);
        expect(Date.now() - started).toBeGreaterThan(DELIVERY_TIMEOUT_MS);
      }),
    );
    expect(slack().calls.map((call) => call.outcome)).toEqual(
      Array(OPEN_CONNECTIONS_MAX + 1).fill(JSON.stringify({ delayMs: answerMs })),
    );
  });
});
