import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { clickOn } from "../support/questionClicks";
import { workspaceShardIn } from "../support/shardIn";
import { suspendedOn } from "../support/suspended";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42 point 1's last clause: an event's story names what its suspended run waits for and the messages it posted.

const slack = useFakeSlack();
const TEN_MINUTES = 600_000;

/** "delete": asks with two buttons (U0000USER and U0000BOSS may answer), then says what it did. */
const app = new App()
  .message("delete", async ({ say, waitForAction }) => {
    const answer = await waitForAction("confirm", {
      text: "Delete these 40 tickets?",
      buttons: [
        { text: "Yes", value: "yes", action_id: "delete_confirm" },
        { text: "No", value: "no", action_id: "delete_confirm" },
      ],
      timeoutMs: TEN_MINUTES,
      from: ["U0000USER", "U0000BOSS"],
    });
    await say(answer.timedOut ? "No answer." : `Answered ${answer.value}.`);
  })
  .message("remind me", async ({ say, step, sleep }) => {
    await step("ack", () => say("I will remind you in a minute."));
    await sleep("a-minute", 60_000);
    await say("Reminder: stretch.");
  });

const message = (team: string, text: string) => eventDelivery(team, channelMessage({ text, ts: messageTs() }));

describe("an event's story: what its run waits for, and its messages", () => {
  it("a run waiting for a click shows its wait — question, deadline, who may answer — and after the click it is gone", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const inbound = message(team, "delete the old tickets");
    const asked = clock.now();
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      const [question] = slack().callsTo("chat.postMessage");
      const channel = String(question!.body.channel);
      const [posted] = slack().messagesIn(channel, String(question!.body.thread_ts));
      const asking = { kind: "question", name: "confirm", channel, ts: posted!.ts };

      const exec = vi.spyOn(state.storage.sql, "exec");
      const [effect] = shard.recording.eventStory(inbound.dedupeKey)!.effects;
      const plans = exec.mock.calls.map(([query, ...bindings]) =>
        state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...bindings)
          .toArray()
          .map((row) => row.detail),
      );
      exec.mockRestore();
      // Keys and indexes only — the receipt, its re-runs' key range, the outbox row, the run's waits (a few rows: sorted in memory) —, never a scan.
      for (const step of plans.flat())
        expect(step).toMatch(
          /^SEARCH \w+ USING (PRIMARY KEY|INDEX \w+) \((\w+=\?|(\w+)>\? AND \3<\?)\)$|^USE TEMP B-TREE FOR ORDER BY$/,
        );
      expect(plans.flat()).toContain("SEARCH waits USING INDEX sqlite_autoindex_waits_2 (run_key=?)");
      expect(effect).toMatchObject({ status: "pending", attempts: 0, leased: false, nextAttemptAt: asked + TEN_MINUTES });
      expect(effect!.waiting).toEqual({
        kind: "action",
        name: "confirm",
        deadline: asked + TEN_MINUTES,
        channel,
        ts: posted!.ts,
        from: ["U0000USER", "U0000BOSS"],
        since: asked,
      });
      expect(effect!.messages).toEqual([asking]);

      clock.advance(60_000);
      await shard.recording.ingest(await clickOn(slack(), team, "yes"));
      // Answered: due now, waiting for nothing, before the sweep even ran it.
      expect(shard.recording.eventStory(inbound.dedupeKey)!.effects[0]!.waiting).toBeNull();
      await shard.delivery.sweep(Date.now());
      const after = shard.recording.eventStory(inbound.dedupeKey)!.effects[0]!;
      expect(after).toMatchObject({ status: "done", waiting: null });
      // The wait is kept a day past its deadline: the done run's question still shows.
      expect(after.messages).toEqual([asking]);
    });
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body.text),
    ).toEqual(["Delete these 40 tickets?", "Answered yes."]);
  });

  it("a sleeping run shows its timer and wake time, and the message its step posted", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const inbound = message(team, "remind me to stretch");
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await suspendedOn(shard, inbound);
      const [ack] = slack().callsTo("chat.postMessage");
      const [posted] = slack().messagesIn(String(ack!.body.channel));
      const [effect] = shard.recording.eventStory(inbound.dedupeKey)!.effects;
      expect(effect!.waiting).toEqual({ kind: "timer", name: "a-minute", deadline: clock.now() + 60_000 });
      expect(effect!.messages).toEqual([{ kind: "post", name: "ack", channel: ack!.body.channel, ts: posted!.ts }]);

      clock.advance(60_000);
      await shard.delivery.sweep(Date.now());
      expect(shard.recording.eventStory(inbound.dedupeKey)!.effects[0]).toMatchObject({ status: "done", waiting: null });
    });
  });
});
