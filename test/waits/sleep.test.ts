import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { stoppedIn } from "../support/outboxRows";
import { workspaceShardIn } from "../support/shardIn";
import { suspendedOn } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** "remind me": a post now (a step), a durable sleep of a minute, the reminder after it. */
const runs: number[] = [];
const app = new App().message("remind me", async ({ say, step, sleep, attempt }) => {
  runs.push(attempt);
  await step("ack", () => say("I will remind you in a minute."));
  await sleep("a-minute", 60_000);
  await say("Reminder: stretch.");
});

function question(team: string) {
  const ts = messageTs();
  const inbound = eventDelivery(team, channelMessage({ text: "remind me to stretch", ts }));
  return { inbound, channel: inbound.conversation!.channel, ts };
}

const said = () =>
  slack()
    .callsTo("chat.postMessage")
    .map((call) => call.body.text);

describe("a run's durable sleep", () => {
  it("ends the attempt at once, holds the row until the time without an attempt counted, then goes on once", async () => {
    const clock = controlClock();
    runs.length = 0;
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      expect(said()).toEqual(["I will remind you in a minute."]);
      const [row] = state.storage.sql
        .exec<{ status: string; attempts: number; next_attempt_at: number }>(
          "SELECT status, attempts, next_attempt_at FROM outbox WHERE done_at IS NULL",
        )
        .toArray();
      // Pending, no attempt counted, due when the sleep ends; the shard's alarm is set for it.
      expect(row).toMatchObject({ status: "pending", attempts: 0 });
      expect(row!.next_attempt_at).toBe(clock.now() + 60_000);
      expect(await state.storage.getAlarm()).toBeLessThanOrEqual(clock.now() + 60_000);

      clock.advance(30_000);
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["I will remind you in a minute."]);

      clock.advance(30_000);
      await shard.delivery.sweep(Date.now());
      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["I will remind you in a minute.", "Reminder: stretch."]);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").one().n).toBe(0);
    });
    // The first attempt, and the one after the sleep: both attempt 1 (a sleep is no failure).
    expect(runs).toEqual([1, 1]);
  });

  it("survives a restart: a new shard over the same storage wakes it at its time", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const first = await workspaceShardIn(state, { app });
      await suspendedOn(first, inbound);
    });
    clock.advance(61_000);
    await runInDurableObject(shardStub(team), async (_, state) => {
      // What a new isolate has: the storage, nothing of the sleeping attempt.
      const second = await workspaceShardIn(state, { app });
      await second.delivery.sweep(Date.now());
    });
    expect(said()).toEqual(["I will remind you in a minute.", "Reminder: stretch."]);
  });

  it("is cancelled by the stop button: stopped (not parked), and nothing more is said when its time comes", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { inbound, channel, ts } = question(team);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await suspendedOn(shard, inbound);
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      for (let i = 0; i < 4; i++) {
        clock.advance(60_000);
        await shard.delivery.sweep(Date.now());
      }
      return { parked: shard.operations.listParked(), stopped: stoppedIn(state) };
    });
    expect(said()).toEqual(["I will remind you in a minute."]);
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped.map((row) => row.last_error)).toEqual(["stopped by user"]);
  });
});
