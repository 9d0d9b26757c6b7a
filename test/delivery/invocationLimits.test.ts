import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { deliverLeased } from "../../src/delivery/deliverClaimed";
import { IMMEDIATE_IN_FLIGHT_MAX } from "../../src/delivery/deliveryLoop";
import { OPEN_CONNECTIONS_MAX } from "../../src/platform/connectionSlots";
import { SPENT_RESUME_MS } from "../../src/platform/invocationMeter";
import { newRow } from "../../src/recording/outboxRows";
import { appMention, slackId } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { withFakeTimers } from "../support/concurrentAnswers";
import { newWorkspace } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { postMessage } from "../support/outboxRows";
import { recordPlanned, shardIn, workspaceShardIn } from "../support/shardIn";
import { DELIVERY_TIMEOUT_MS, LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** Calls each mention's handler makes: more than a sixth of a 20-subrequest budget. */
const REACTIONS = 4;

/** An app reacting REACTIONS times to each mention, shrugging off every failed call as a careless handler would. */
function reactingApp() {
  return new App().event("app_mention", async ({ event, client }) => {
    for (let n = 0; n < REACTIONS; n++) {
      try {
        await client.reactions.add({ channel: String(event!.channel), timestamp: String(event!.ts), name: `r${n}` });
      } catch {}
    }
  });
}

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

  it("a sweep over more rows than its invocation's subrequests makes at most that many calls; the next alarms deliver the rest, each once", async () => {
    const team = newWorkspace();
    const budget = 20;
    const channels = Array.from({ length: 50 }, () => slackId("C"));
    await runInDurableObject(shardOf(team), async (_, state) => {
      const { outbox, loop } = shardIn(state, { name: `${team}/0`, settings: { SUBREQUESTS_PER_INVOCATION: String(budget) } });
      // Due now and unleased, as rows an ingest leaves to the sweep.
      const rows = channels.map((channel, n) => newRow(`Ev-${n}:post`, team, postMessage(channel)));
      outbox.enqueue(rows, Date.now(), null);
      const callsPerAlarm: number[] = [];
      for (let alarm = 0; alarm < 5 && outbox.countsByStatus().pending > 0; alarm++) {
        const before = slack().calls.length;
        await loop.sweep(Date.now());
        callsPerAlarm.push(slack().calls.length - before);
        // What is left is due at once: the next alarm is armed for now.
        if (alarm === 0) expect(outbox.nextWakeAt()).toBeLessThanOrEqual(Date.now());
        // Delivered rows' deletions are written with the shard's next write, at most 10 ms later.
        loop.ready!.courier.completions.flush();
      }
      // A tenth of the budget is left for what delivery does not count (reports to the watch, metrics).
      expect(callsPerAlarm).toEqual([18, 18, 14]);
      // The sweep claimed no more than it could send: nothing was postponed on the way.
      expect(loop.counters).toMatchObject({ delivered: channels.length, postponed: 0, retried: 0 });
    });
    const posts = slack().callsTo("chat.postMessage");
    expect(posts.map((call) => call.body.channel).sort()).toEqual([...channels].sort());
  });

  it("a call past the budget is refused unsent; a row cut short is retried, never taken as delivered even when its handler catches the refusal", async () => {
    const team = newWorkspace();
    const clock = controlClock();
    // Six rows at once, four calls each, share 18 subrequests: each is cut short at its fourth.
    const app = reactingApp();
    const mentions = Array.from({ length: 10 }, () => eventDelivery(team, appMention({ channel: slackId("C") })));
    await runInDurableObject(shardOf(team), async (_, state) => {
      const settings = { SUBREQUESTS_PER_INVOCATION: "20", SLACK_PACING: "false" };
      const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings });
      const channelOf = new Map<string, string>();
      for (const inbound of mentions) {
        const [row] = recordPlanned(outbox, app, inbound);
        channelOf.set(row!.idempotency_key, inbound.conversation!.channel);
      }
      const delivered: string[][] = [];
      loop.events.subscribe((event) => {
        if (event.type === "delivered") delivered.at(-1)!.push(event.key);
      });
      const callsPerAlarm: Array<Map<string, number>> = [];
      for (let alarm = 0; alarm < 60 && outbox.countsByStatus().pending > 0; alarm++) {
        const before = slack().calls.length;
        delivered.push([]);
        await loop.sweep(Date.now());
        const calls = slack().calls.slice(before);
        expect(calls.length).toBeLessThanOrEqual(18);
        const byChannel = new Map<string, number>();
        for (const call of calls) byChannel.set(String(call.body.channel), (byChannel.get(String(call.body.channel)) ?? 0) + 1);
        callsPerAlarm.push(byChannel);
        loop.ready!.courier.completions.flush();
        clock.advance(SPENT_RESUME_MS);
      }
      expect(outbox.countsByStatus()).toMatchObject({ pending: 0, parked: 0 });
      // Every row delivered made all its calls in the alarm that delivered it.
      delivered.forEach((keys, alarm) => {
        for (const key of keys) expect(callsPerAlarm[alarm]!.get(channelOf.get(key)!)).toBe(REACTIONS);
      });
      expect(delivered.flat().sort()).toEqual([...channelOf.keys()].sort());
      // The first alarm cut six rows short (retried) and left four unbegun (postponed).
      expect(loop.counters).toMatchObject({ delivered: mentions.length, parked: 0 });
      expect(loop.counters.retried).toBeGreaterThanOrEqual(OPEN_CONNECTIONS_MAX);
      expect(loop.counters.postponed).toBeGreaterThan(0);
    });
    // Nothing refused reached Slack: each call the fake saw was answered.
    expect(slack().calls.every((call) => call.outcome === "ok")).toBe(true);
  });

  it("after an alarm cut attempts short, the next one sends its rows one at a time, so each gets what is left", async () => {
    const team = newWorkspace();
    const clock = controlClock();
    const app = reactingApp();
    const mentions = Array.from({ length: OPEN_CONNECTIONS_MAX }, () =>
      eventDelivery(team, appMention({ channel: slackId("C") })),
    );
    await runInDurableObject(shardOf(team), async (_, state) => {
      const settings = { SUBREQUESTS_PER_INVOCATION: "20", SLACK_PACING: "false" };
      const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings });
      for (const inbound of mentions) recordPlanned(outbox, app, inbound);
      // Six at once share 18 subrequests: each makes three calls and is cut short at its fourth.
      await loop.sweep(Date.now());
      expect(loop.counters).toMatchObject({ delivered: 0, retried: OPEN_CONNECTIONS_MAX });
      // Past every retry's backoff: all six are due together again.
      clock.advance(3_000);
      await loop.sweep(Date.now());
      // One at a time, each promised the four calls its listener asked for: four fit in 18; the fifth and the sixth
      // find two left and wait unbegun, none cut short again.
      expect(loop.counters).toMatchObject({ delivered: 4, retried: OPEN_CONNECTIONS_MAX, postponed: 2 });
    });
  });

  it("once ingests stop, the attempts still running share one budget until the next alarm; the rest wait for it", async () => {
    const team = newWorkspace();
    const clock = controlClock();
    // Early in a minute: the shard's minute metrics arm the alarm at the minute's end.
    clock.advance(60_000 - (clock.now() % 60_000) + 5_000);
    // Ten mentions of four calls each arrive together; Slack holds each answer, so most calls are made after the last ingest.
    const app = reactingApp();
    const mentions = Array.from({ length: 10 }, () => eventDelivery(team, appMention({ channel: slackId("C") })));
    slack().fail({ method: "reactions.add" }, { delayMs: 20 }, mentions.length * REACTIONS);
    await runInDurableObject(shardOf(team), async (_, state) => {
      const settings = { SUBREQUESTS_PER_INVOCATION: "20", SLACK_PACING: "false" };
      const shard = await workspaceShardIn(state, { name: `${team}/0`, app, settings });
      const { immediate, courier } = shard.delivery.ready!;
      for (const inbound of mentions) await shard.recording.ingest(inbound);
      const meter = courier.meters.current;
      while (immediate.counts().inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      // Each ingest renewed the shard's window: after the last one, all the running attempts had 18 between them.
      expect(meter.left).toBe(0);
      expect(slack().calls.length).toBeLessThan(mentions.length * REACTIONS);
      expect(shard.delivery.counters.retried + shard.delivery.counters.postponed).toBeGreaterThan(0);
      // The alarms, each an invocation with a budget of its own, deliver the rest.
      for (let alarm = 0; alarm < 20 && shard.delivery.counters.delivered < mentions.length; alarm++) {
        clock.advance(3_000);
        courier.completions.flush();
        await shard.delivery.sweep(Date.now());
      }
      expect(shard.delivery.counters).toMatchObject({ delivered: mentions.length, parked: 0 });
    });
    // Every row delivered: each of its four reactions reached Slack.
    const reacted = new Set(
      slack()
        .callsTo("reactions.add")
        .map((call) => `${call.body.channel} ${call.body.name}`),
    );
    expect(reacted.size).toBe(mentions.length * REACTIONS);
  });

  it("a shard never idle, each ingest arriving while the one before is still delivering, keeps delivering past a whole budget's calls", async () => {
    const team = newWorkspace();
    // Three budgets' worth of mentions, each in a channel of its own (no pacing holds any back).
    const mentions = Array.from({ length: 54 }, () => eventDelivery(team, appMention({ channel: slackId("C") })));
    // Slack holds each answer a while: every ingest arrives while earlier attempts still wait for theirs.
    slack().fail({ method: "chat.postMessage" }, { delayMs: 40 }, mentions.length);
    const warn = vi.spyOn(console, "warn");
    await runInDurableObject(shardOf(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: `${team}/0`, settings: { SUBREQUESTS_PER_INVOCATION: "20" } });
      const { immediate } = shard.delivery.ready!;
      // A shard that has delivered this listener before: its one call is known (a run not seen yet is promised three).
      const [first, ...rest] = mentions;
      await shard.recording.ingest(first!);
      while (immediate.counts().inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      for (const inbound of rest) {
        await shard.recording.ingest(inbound);
        expect(immediate.counts().inFlight).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      while (immediate.counts().inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      // Each ingest's attempt counted on its own invocation: all went at once, no alarm needed.
      expect(shard.delivery.counters).toMatchObject({ delivered: mentions.length, postponed: 0, retried: 0 });
    });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(mentions.length);
    expect(warn.mock.calls.flat().join("\n")).not.toContain("subrequests of this invocation spent");
  });
});
