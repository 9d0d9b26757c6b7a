import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { deliverLeased } from "../../src/delivery/deliverClaimed";
import { RetryableError } from "../../src/platform/errors";
import { newRow } from "../../src/recording/outboxRows";
import { STATUS_OF } from "../../src/recording/rowStatus";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { stoppedIn } from "../support/outboxRows";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** A user's message to the agent in a channel of its own: the root of its conversation. */
function question(team: string, text: string) {
  const ts = messageTs();
  const inbound = eventDelivery(team, channelMessage({ text, ts }));
  const channel = inbound.conversation!.channel;
  return { inbound, channel, ts };
}

describe("the stop button (agent_session_stopped)", () => {
  it("aborts a running run at once: its signal, no Slack call of it after the stop, its stream stopped, the session active", async () => {
    controlClock();
    const team = newWorkspace();
    const streaming = latch();
    const aborted = latch<number>();
    const after: string[] = [];
    const app = new App().message("think", async ({ signal, sayStream, say }) => {
      const stream = sayStream();
      await stream.append({ markdown_text: "thinking… ".repeat(30) });
      streaming.open();
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
      aborted.open(Date.now());
      // A run that goes on after the stop, inside Slack's sample try/catch: nothing of it reaches Slack,
      // and neither its next line nor its catch runs (the call never settles).
      try {
        await say("too late");
        after.push("said");
        await stream.append({ markdown_text: "too late ".repeat(40) });
        after.push("streamed");
      } catch (error) {
        after.push(`caught ${error}`);
        await say(`:warning: Something went wrong! (${error})`);
      }
    });
    const { channel, ts, inbound } = question(team, "think about it");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await shard.recording.ingest(inbound);
      await streaming.opened;
      const [stream] = await slack()
        .waitFor("chat.startStream")
        .then(() => slack().messagesIn(channel, ts));
      const settled = latch<string>();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "stopped") settled.open(event.reason);
        if (event.type === "parked") settled.open(`parked: ${event.reason}`);
      });
      const stoppedAt = Date.now();
      const callsBefore = slack().calls.length;
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts }, [stream!.ts])));
      const abortedAt = await aborted.opened;
      const active = await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
      await slack().waitFor("chat.stopStream");
      await slack().waitFor("assistant.threads.setStatus", (call) => call.body.status === "");
      // The run's own attempt settles stopped: an outcome, not parked, no follow-ups (the stop told Slack already).
      const reason = await settled.opened;
      const parked = shard.operations.listParked();
      const rows = state.storage.sql
        .exec(`SELECT idempotency_key, ${STATUS_OF("outbox")} AS status, last_error, attempts FROM outbox WHERE effect = 'run'`)
        .toArray();
      return {
        stoppedAt,
        abortedAt,
        active,
        reason,
        parked,
        rows,
        counts: shard.operations.stats().outbox,
        after: slack().calls.slice(callsBefore),
        stream: slack().message(channel, stream!.ts),
      };
    });
    // Aborted in the stop's own turn: no time had to pass for it (the clock never moved).
    expect(outcome.abortedAt).toBe(outcome.stoppedAt);
    // Its calls are refused unsent, and its code goes no further: not to its next line, not to its catch.
    expect(after).toEqual([]);
    expect(outcome.active.at - outcome.stoppedAt).toBeLessThan(2500);
    expect(outcome.active.body).toEqual({ channel_id: channel, thread_ts: ts, status: "active" });
    // After the stop, only the stop's own calls: the stream it names stopped, the session active.
    expect(outcome.after.map((call) => call.method).sort()).toEqual([
      "agents.sessions.setStatus",
      "assistant.threads.setStatus",
      "chat.stopStream",
    ]);
    expect(outcome.stream).toMatchObject({ streaming: false });
    expect(
      slack()
        .callsTo("agents.sessions.setStatus")
        .map((call) => call.body.status),
    ).toEqual(["processing", "active"]);
    expect(outcome.reason).toBe("stopped by user");
    // A stop is an outcome: nothing parked (no dead letter, no alert), the run kept as stopped and counted apart.
    expect(outcome.parked).toEqual([]);
    expect(outcome.rows).toEqual([
      {
        idempotency_key: `${inbound.dedupeKey}:run:message:think`,
        status: "stopped",
        last_error: "stopped by user",
        attempts: 1,
      },
    ]);
    // (`pending` still holds the stop's own calls, answered but not yet completed, and the close of the run's stream.)
    expect(outcome.counts).toMatchObject({ parked: 0, stopped: 1 });
  });

  it("a stream Slack stopped already counts as stopped: nothing is parked for it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const app = new App().message("answer", async ({ sayStream }) => {
      const stream = sayStream();
      await stream.append({ markdown_text: "the whole answer" });
      await stream.stop();
    });
    const { channel, ts, inbound } = question(team, "answer me");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const delivered: string[] = [];
      const answered = latch();
      const stopped = latch();
      shard.delivery.events.subscribe((event) => {
        if (event.type !== "delivered") return;
        delivered.push(event.key);
        if (event.key.includes(":run:")) answered.open();
        if (event.key.includes("stop:stream:")) stopped.open();
      });
      await shard.recording.ingest(inbound);
      await answered.opened;
      const [answer] = slack().messagesIn(channel, ts);
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts }, [answer!.ts])));
      // Slack's pace for chat.stopStream (Tier 2) may hold the second stop a few seconds.
      for (let i = 0; i < 4 && !delivered.some((key) => key.includes("stop:stream:")); i++) {
        clock.advance(5_000);
        await shard.delivery.sweep(Date.now());
      }
      await stopped.opened;
      return { parked: shard.operations.listParked(), message: slack().message(channel, answer!.ts) };
    });
    // Its chat.stopStream answered message_not_in_streaming_state, which for this call means done.
    expect(outcome.message).toMatchObject({ text: "the whole answer", streaming: false });
    expect(outcome.parked).toEqual([]);
  });

  it("a run not yet begun never begins: its row is stopped ('stopped by user'), not parked; another thread's runs run", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const ran: string[] = [];
    const app = new App()
      .message("later", async ({ event }) => {
        ran.push(String(event.text));
      })
      // The app's own listener of the stop runs: the stop parks the runs recorded before it.
      .event("agent_session_stopped", async () => {
        ran.push("the stop's own run");
      });
    const { channel, ts, inbound } = question(team, "later please");
    // The same channel, another thread: not stopped.
    const elsewhere = eventDelivery(team, channelMessage({ text: "later, elsewhere", channel }));
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      // Recorded for the sweep (not leased): waiting for their first attempt when the stop comes.
      const outbox = shard.delivery.ready!.courier.outbox;
      outbox.enqueue(
        [inbound, elsewhere].map((delivery) =>
          newRow(`${delivery.dedupeKey}:run:message:later`, team, { type: "run", listener: "message:later", inbound: delivery }),
        ),
        Date.now(),
        null,
      );
      const stopRan = latch();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "delivered" && event.key.includes(":run:event:")) stopRan.open();
      });
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      await stopRan.opened;
      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      return { parked: shard.operations.listParked(), stopped: stoppedIn(state) };
    });
    expect(ran.sort()).toEqual(["later, elsewhere", "the stop's own run"]);
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped).toEqual([
      { idempotency_key: `${inbound.dedupeKey}:run:message:later`, last_error: "stopped by user", attempts: 0 },
    ]);
  });

  it("a run no index finds when the stop comes (no turn, waiting for a retry) is stopped as it begins, by the next instance too", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const ran: string[] = [];
    const app = new App({ turns: "parallel" }).message("later", async ({ event }) => {
      ran.push(String(event.text));
    });
    const { channel, ts, inbound } = question(team, "later please");
    const stub = shardStub(team);
    await runInDurableObject(stub, async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const outbox = shard.delivery.ready!.courier.outbox;
      // Waiting unleased for its retry an hour away: in no index a stop reads, leased to no one.
      outbox.enqueue(
        [newRow(`${inbound.dedupeKey}:run:message:later`, team, { type: "run", listener: "message:later", inbound })],
        Date.now(),
        null,
      );
      state.storage.sql.exec("UPDATE outbox SET attempts = 1, next_attempt_at = ? WHERE effect = 'run'", Date.now() + 3_600_000);
      clock.advance(1_000);
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
    });
    await evictDurableObject(stub);
    const outcome = await runInDurableObject(stub, async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      clock.advance(3_600_000);
      await shard.delivery.sweep(Date.now());
      return { parked: shard.operations.listParked(), stopped: stoppedIn(state) };
    });
    expect(ran).toEqual([]);
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped).toEqual([
      { idempotency_key: `${inbound.dedupeKey}:run:message:later`, last_error: "stopped by user", attempts: 1 },
    ]);
  });

  it("a run already lined up for an attempt in this isolate does not begin when its turn comes", async () => {
    controlClock();
    const team = newWorkspace();
    const ran: string[] = [];
    const app = new App().message("queued", async () => {
      ran.push("ran");
    });
    const { channel, ts, inbound } = question(team, "queued up");
    const settled = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const { courier } = shard.delivery.ready!;
      courier.outbox.enqueue(
        [newRow("queued:run", team, { type: "run", listener: "message:queued", inbound })],
        Date.now(),
        null,
      );
      const token = crypto.randomUUID();
      // Claimed (the sweep's batch) before the stop, performed after it.
      const rows = courier.outbox.claimBatch(token, Date.now(), 60_000, 10);
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      await deliverLeased(courier, token, rows);
      return state.storage.sql
        .exec(`SELECT ${STATUS_OF("outbox")} AS status, last_error FROM outbox WHERE idempotency_key = 'queued:run'`)
        .toArray();
    });
    expect(ran).toEqual([]);
    expect(settled).toEqual([{ status: "stopped", last_error: "stopped by user" }]);
  });

  it("a run waiting for its retry is stopped, and a later message in the thread runs as usual", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const attempts: string[] = [];
    const app = new App().message("flaky", async ({ event }) => {
      attempts.push(String(event.text));
      if (event.text === "flaky first") throw new RetryableError("the model is busy");
    });
    const { channel, ts, inbound } = question(team, "flaky first");
    const rows = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const again = eventDelivery(team, { ...channelMessage({ text: "flaky again", channel }), thread_ts: ts });
      const retried = latch();
      const delivered = latch();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "retried") retried.open();
        if (event.type === "delivered" && event.key.startsWith(again.dedupeKey)) delivered.open();
      });
      await shard.recording.ingest(inbound);
      await retried.opened;
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      await shard.recording.ingest(again);
      await delivered.opened;
      for (let i = 0; i < 6; i++) {
        clock.advance(60_000);
        await shard.delivery.sweep(Date.now());
      }
      return state.storage.sql
        .exec(
          `SELECT ${STATUS_OF("outbox")} AS status, last_error FROM outbox WHERE effect = 'run' AND done_at IS NULL ORDER BY created_at`,
        )
        .toArray();
    });
    expect(attempts).toEqual(["flaky first", "flaky again"]);
    expect(rows).toEqual([{ status: "stopped", last_error: "stopped by user" }]);
  });
});

describe("the stop button and streams Slack's event does not name", () => {
  it("closes a stream the stop event does not name (Slack knew of none at the click) from the run's checkpoint", async () => {
    controlClock();
    const team = newWorkspace();
    const streaming = latch();
    const ended = latch();
    const app = new App().message("think", async ({ signal, sayStream }) => {
      const stream = sayStream();
      await stream.append({ markdown_text: "thinking… ".repeat(30) });
      streaming.open();
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
      ended.open();
    });
    const { channel, ts, inbound } = question(team, "think about it");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await shard.recording.ingest(inbound);
      await streaming.opened;
      const [stream] = await slack()
        .waitFor("chat.startStream")
        .then(() => slack().messagesIn(channel, ts));
      // Slack's event names no stream (as when the click came while a start was in flight).
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts }, [])));
      await ended.opened;
      // The alarm the stop armed: its follow-ups are due at once.
      await shard.alarm();
      return slack().message(channel, stream!.ts);
    });
    expect(outcome).toMatchObject({ streaming: false, text: "thinking… ".repeat(30) });
  });
});

describe("the stop button and a stopped run's status", () => {
  it("clears the thread's status the stopped run set", async () => {
    controlClock();
    const team = newWorkspace();
    const working = latch();
    const app = new App().message("think", async ({ signal, setStatus }) => {
      await setStatus("is thinking…");
      working.open();
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
    });
    const { channel, ts, inbound } = question(team, "think about it");
    const cleared = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await shard.recording.ingest(inbound);
      await working.opened;
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      // This thread's: an earlier test's shard may still be clearing its own.
      return slack().waitFor(
        "assistant.threads.setStatus",
        (call) => call.body.status === "" && call.body.channel_id === channel,
      );
    });
    expect(cleared.body).toMatchObject({ channel_id: channel, thread_ts: ts, status: "" });
  });
});
