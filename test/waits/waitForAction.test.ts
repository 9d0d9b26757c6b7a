import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { WAIT_ENDED_TEXT } from "../../src/app/waits";
import type { Inbound } from "../../src/inbound/types";
import { recordEnteredSpans, type SpanAttributes } from "../../src/platform/spans";
import { channelMessage, messageTs, slackId } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery, inboundOf } from "../support/inboundOf";
import { stoppedIn } from "../support/outboxRows";
import { ephemeralsOf, postedTexts } from "../support/questionClicks";
import { workspaceShardIn } from "../support/shardIn";
import { settled, suspendedOn } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const TEN_MINUTES = 600_000;

/** "delete": asks first, with two buttons; goes on as the click (or the timeout) says. */
const runs: number[] = [];
const app = new App().message("delete", async ({ say, waitForAction }) => {
  runs.push(Date.now());
  const answer = await waitForAction("confirm", {
    text: "Delete these 40 tickets?",
    buttons: [
      { text: "Yes", value: "yes", action_id: "delete_confirm", style: "danger" },
      { text: "No", value: "no", action_id: "delete_confirm" },
    ],
    timeoutMs: TEN_MINUTES,
  });
  if (answer.timedOut) await say("No answer: nothing deleted.");
  else await say(answer.value === "yes" ? `Deleted, as <@${answer.user}> said.` : "Kept them.");
});

function question(team: string) {
  const ts = messageTs();
  const inbound = eventDelivery(team, channelMessage({ text: "delete the old tickets", ts }));
  return { inbound, channel: inbound.conversation!.channel, ts };
}

/** The question as posted: its message's ts and the block_id its buttons carry. */
function asked() {
  const [call] = slack().callsTo("chat.postMessage");
  const blocks = call!.body.blocks as Array<{ type: string; block_id?: string }>;
  const channel = String(call!.body.channel);
  const [message] = slack().messagesIn(channel, String(call!.body.thread_ts));
  return {
    channel,
    ts: message!.ts,
    threadTs: String(call!.body.thread_ts),
    blockId: blocks.find((b) => b.type === "actions")!.block_id!,
  };
}

/** A person's click on one of the question's buttons, as Slack sends it (a fresh trigger_id each time). */
function click(team: string, on: ReturnType<typeof asked>, value: string, user = "U0000USER"): Inbound {
  return inboundOf(
    "interaction",
    "block_actions",
    {
      user: { id: user, team_id: team },
      container: { type: "message", message_ts: on.ts, channel_id: on.channel, thread_ts: on.threadTs },
      channel: { id: on.channel },
      message: { type: "message", ts: on.ts, thread_ts: on.threadTs, text: "Delete these 40 tickets?" },
      actions: [{ type: "button", action_id: "delete_confirm", block_id: on.blockId, value, action_ts: messageTs() }],
    },
    { team, id: slackId("13345224609.") },
  );
}

const said = () => postedTexts(slack());
const ephemerals = () => ephemeralsOf(slack());

describe("waitForAction: a durable wait for a person's click", () => {
  it("asks in the thread with its buttons, holds nothing while it waits, and goes on once with the click", async () => {
    const clock = controlClock();
    runs.length = 0;
    const team = newWorkspace();
    const { inbound, ts } = question(team);
    const waitSpans: SpanAttributes[] = [];
    recordEnteredSpans((span) => span.name === "wait" && waitSpans.push(span.attributes));
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      const on = asked();
      expect(on.threadTs).toBe(ts);
      expect(on.blockId).toMatch(/^durable_wait:0:[\w-]{22}$/);
      // Pending, unleased, no attempt counted, due at the deadline; one wait row, open.
      const row = state.storage.sql.exec("SELECT attempts, claim_token, next_attempt_at FROM outbox WHERE done_at IS NULL").one();
      expect(row).toEqual({ attempts: 0, claim_token: null, next_attempt_at: clock.now() + TEN_MINUTES });
      expect(state.storage.sql.exec("SELECT state, message_ts FROM waits").toArray()).toEqual([
        { state: "open", message_ts: on.ts },
      ]);

      clock.advance(60_000);
      const verdict = await shard.recording.ingest(click(team, on, "yes"));
      expect(verdict.verdict).toBe("accepted");
      // The click made the run due at once: the sweep runs it now, not at the deadline.
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["Delete these 40 tickets?", "Deleted, as <@U0000USER> said."]);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").one().n).toBe(0);
      expect(state.storage.sql.exec("SELECT state FROM waits").one().state).toBe("closed");
    });
    expect(runs).toHaveLength(2);
    expect(ephemerals()).toEqual([]);
    recordEnteredSpans(undefined);
    // Its spans (docs/guides/operations.md "Traces"): the wait opened (met again each time the run goes
    // through it), last closed by the run it answered; each with the run's ids.
    const ids = { event_id: inbound.dedupeKey, workspace: team, effect: "run", listener: "message:delete" };
    expect(waitSpans[0]).toEqual(expect.objectContaining({ ...ids, wait: "confirm", "wait.change": "open" }));
    expect(waitSpans.at(-1)).toEqual(expect.objectContaining({ ...ids, "wait.change": "close" }));
    for (const span of waitSpans) expect(span).toMatchObject(ids);
  });

  it("times out: the run goes on with timedOut at its deadline, and a click after it is told the question ended", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      const on = asked();
      clock.advance(TEN_MINUTES - 1);
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["Delete these 40 tickets?"]);
      clock.advance(1);
      await shard.delivery.sweep(Date.now());
      expect(said()).toEqual(["Delete these 40 tickets?", "No answer: nothing deleted."]);

      await shard.recording.ingest(click(team, on, "yes"));
      await shard.delivery.sweep(Date.now());
      expect(said()).toHaveLength(2);
      expect(ephemerals()).toEqual([{ user: "U0000USER", text: WAIT_ENDED_TEXT }]);
      expect(state.storage.sql.exec("SELECT state FROM waits").one().state).toBe("timed_out");
    });
  });

  it("answers once: a second click, and a replay of the first, resume nothing and are told it ended", async () => {
    controlClock();
    runs.length = 0;
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      const on = asked();
      const first = click(team, on, "no");
      await shard.recording.ingest(first);
      await shard.recording.ingest(click(team, on, "yes", "U0000OTHER"));
      // Slack's own retry of the first click (same trigger_id) is a duplicate: nothing at all.
      expect((await shard.recording.ingest(first)).verdict).toBe("duplicate");
      await shard.delivery.sweep(Date.now());
    });
    expect(said()).toEqual(["Delete these 40 tickets?", "Kept them."]);
    expect(runs).toHaveLength(2);
    expect(ephemerals()).toEqual([{ user: "U0000OTHER", text: WAIT_ENDED_TEXT }]);
  });

  it("a click naming a wait from another message, another channel, or no wait at all resumes nothing", async () => {
    controlClock();
    runs.length = 0;
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      const on = asked();
      await shard.recording.ingest(click(team, { ...on, ts: messageTs() }, "yes"));
      await shard.recording.ingest(click(team, { ...on, channel: "C0000ELSE" }, "yes"));
      await shard.recording.ingest(click(team, { ...on, blockId: "durable_wait:0:AAAAAAAAAAAAAAAAAAAAAA" }, "yes"));
      await shard.delivery.sweep(Date.now());
      expect(state.storage.sql.exec("SELECT state FROM waits").one().state).toBe("open");
      expect(state.storage.sql.exec("SELECT attempts, claim_token FROM outbox WHERE done_at IS NULL").one()).toEqual({
        attempts: 0,
        claim_token: null,
      });
    });
    expect(said()).toEqual(["Delete these 40 tickets?"]);
    expect(runs).toHaveLength(1);
    expect(ephemerals()).toHaveLength(3);
  });

  it("survives a restart: a new shard over the same storage takes the click and resumes the run", async () => {
    controlClock();
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      await suspendedOn(await workspaceShardIn(state, { app }), inbound);
    });
    await runInDurableObject(shardStub(team), async (_, state) => {
      // What a new isolate has: the storage, nothing of the suspended attempt.
      const shard = await workspaceShardIn(state, { app });
      await shard.recording.ingest(click(team, asked(), "yes"));
      await shard.delivery.sweep(Date.now());
    });
    expect(said()).toEqual(["Delete these 40 tickets?", "Deleted, as <@U0000USER> said."]);
  });

  it("is cancelled by the stop button: stopped (not parked), its session left, and a click after it is told it ended", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { inbound, channel, ts } = question(team);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await suspendedOn(shard, inbound);
      const on = asked();
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts })));
      await shard.recording.ingest(click(team, on, "yes"));
      clock.advance(TEN_MINUTES);
      await shard.delivery.sweep(Date.now());
      return { parked: shard.operations.listParked(), stopped: stoppedIn(state) };
    });
    expect(said()).toEqual(["Delete these 40 tickets?"]);
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped.map((row) => row.last_error)).toEqual(["stopped by user"]);
    expect(ephemerals()).toEqual([{ user: "U0000USER", text: WAIT_ENDED_TEXT }]);
  });

  it("shows its agent session suspended while it waits for the person (processing again once answered)", async () => {
    controlClock();
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await suspendedOn(shard, inbound);
      await shard.recording.ingest(click(team, asked(), "yes"));
      await shard.delivery.sweep(Date.now());
    });
    const sessions = slack()
      .callsTo("agents.sessions.setStatus")
      .map((call) => call.body.status);
    expect(sessions).toEqual(["processing", "suspended", "processing", "active"]);
  });

  it("a click while the run is still suspending itself wakes it at once, not at the deadline", async () => {
    controlClock();
    const team = newWorkspace();
    const { inbound } = question(team);
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      // The session's "suspended" is answered late: the click comes in between the wait's read and its settle.
      slack().fail({ method: "agents.sessions.setStatus" }, { delayMs: 300 }, 2);
      const first = settled(shard);
      await shard.recording.ingest(inbound);
      await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "suspended");
      await shard.recording.ingest(click(team, asked(), "no"));
      expect(await first).toBe("postponed");
      const row = state.storage.sql
        .exec<{ next_attempt_at: number }>("SELECT next_attempt_at FROM outbox WHERE done_at IS NULL")
        .one();
      expect(row.next_attempt_at).toBeLessThanOrEqual(Date.now());
      await shard.delivery.sweep(Date.now());
    });
    expect(said()).toEqual(["Delete these 40 tickets?", "Kept them."]);
  });
});
