import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { TurnPolicy } from "../../src/app/listeners";
import { HELD_TURN_AT } from "../../src/recording/turnMarks";
import type { RecordedCall } from "../../src/testing";
import { USER } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { latch } from "../support/latch";
import { stoppedIn } from "../support/outboxRows";
import { workspaceShardIn } from "../support/shardIn";
import { suspendedOn } from "../support/suspended";
import { answering, settledWithin, thread } from "../support/turnThreads";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const settings = { SLACK_PACING: "false" };
const OTHER = "U0000OTHER";
const DAY_MS = 86_400_000;

/** A reminder that sleeps a day between its two posts (the demo's shape), beside `answer NAME`, both turns (queue). */
function reminderApp(hold?: (name: string, signal: AbortSignal) => Promise<void>) {
  return new App()
    .message("remind me", async ({ say, step, sleep }) => {
      await step("ack", () => say("I will remind you tomorrow."));
      await sleep("a-day", DAY_MS);
      await say("Reminder: stretch.");
    })
    .message(/answer (\w+)/, answering(hold));
}

const position = (call: RecordedCall | undefined) => (call ? slack().calls.indexOf(call) : -1);
/** What the channel shows, its thread's replies included, in the order posted (`say` posts beside the message). */
const texts = (channel: string, _root: string) =>
  slack()
    .messagesIn(channel)
    .map((message) => message.text);

describe("a suspended run holds no turn", () => {
  it("a day-long sleep gives its thread back: another user's message there is answered at once; the sleeper's row is given back, not held", async () => {
    controlClock();
    const team = newWorkspace();
    const { root, channel, first, reply } = thread(team, "remind me to stretch");
    const other = reply("answer two", OTHER);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app: reminderApp(), settings });
      await suspendedOn(shard, first);
      const otherDone = settledWithin(shard.delivery.events, other.dedupeKey);
      await shard.recording.ingest(other);
      const sleeper = state.storage.sql
        .exec("SELECT turn, turn_seq, turn_released, status FROM outbox WHERE idempotency_key LIKE ?", `${first.dedupeKey}:%`)
        .one();
      return { other: await otherDone(), sleeper };
    });
    expect(outcome.other).toBe("delivered");
    expect(outcome.sleeper).toEqual({ turn: null, turn_seq: null, turn_released: first.conversation!.key, status: "pending" });
    expect(texts(channel, root)).toEqual(["I will remind you tomorrow.", "answer of two: part 1, part 2"]);
  });

  it("the sleeper wakes as its thread's newest turn: it waits for the turn running then, and goes right after it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const streaming = latch();
    const release = latch();
    const app = reminderApp(async () => {
      streaming.open();
      await release.opened;
    });
    const { root, channel, first, reply } = thread(team, "remind me to stretch");
    const other = reply("answer two", OTHER);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      await suspendedOn(shard, first);
      const sleeperDone = settledWithin(shard.delivery.events, first.dedupeKey);
      const otherDone = settledWithin(shard.delivery.events, other.dedupeKey);
      // A second before the day ends, the other user asks; the day ends while their answer still streams.
      clock.advance(DAY_MS - 1_000);
      await shard.recording.ingest(other);
      await streaming.opened;
      clock.advance(1_000);
      // The sleeper wakes, and waits: held behind the running turn, not run.
      await shard.delivery.sweep(Date.now());
      const held = state.storage.sql
        .exec(
          "SELECT turn, turn_released, next_attempt_at, claim_token FROM outbox WHERE idempotency_key LIKE ?",
          `${first.dedupeKey}:%`,
        )
        .one();
      const whileAnswering = { texts: texts(channel, root), sleeper: await sleeperDone(200), held };
      release.open();
      return {
        whileAnswering,
        other: await otherDone(),
        sleeper: await sleeperDone(),
        rows: state.storage.sql.exec("SELECT 1 FROM outbox WHERE done_at IS NULL").toArray().length,
      };
    });
    expect(outcome.whileAnswering).toEqual({
      texts: ["I will remind you tomorrow.", "answer of two: part 1"],
      sleeper: "not yet",
      held: { turn: first.conversation!.key, turn_released: null, next_attempt_at: HELD_TURN_AT, claim_token: null },
    });
    expect(outcome.other).toBe("delivered");
    expect(outcome.sleeper).toBe("delivered");
    expect(outcome.rows).toBe(0);
    const reminder = slack()
      .callsTo("chat.postMessage")
      .find((call) => call.body.text === "Reminder: stretch.");
    expect(position(reminder)).toBeGreaterThan(position(slack().callsTo("chat.stopStream")[0]));
    expect(texts(channel, root)).toEqual(["I will remind you tomorrow.", "answer of two: part 1, part 2", "Reminder: stretch."]);
  });

  it("durable: a new instance over the same storage answers the other user at once, and wakes the sleeper at its time", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { root, channel, first, reply } = thread(team, "remind me to stretch");
    const other = reply("answer two", OTHER);
    await runInDurableObject(shardStub(team), async (_, state) => {
      await suspendedOn(await workspaceShardIn(state, { app: reminderApp(), settings }), first);
    });
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      // A new isolate: its walk of the outbox finds no lead holding the thread.
      const shard = await workspaceShardIn(state, { app: reminderApp(), settings });
      const otherDone = settledWithin(shard.delivery.events, other.dedupeKey);
      const sleeperDone = settledWithin(shard.delivery.events, first.dedupeKey);
      await shard.recording.ingest(other);
      const answered = await otherDone();
      clock.advance(DAY_MS);
      await shard.delivery.sweep(Date.now());
      return { answered, woke: await sleeperDone() };
    });
    expect(outcome).toEqual({ answered: "delivered", woke: "delivered" });
    expect(texts(channel, root)).toEqual(["I will remind you tomorrow.", "answer of two: part 1, part 2", "Reminder: stretch."]);
  });
});

describe("interrupt stops the same user's turns by default", () => {
  /** USER's first answer streams until released or interrupted; then `reply(text, user)` comes. */
  async function interrupted(turns: TurnPolicy, user: string) {
    controlClock();
    const team = newWorkspace();
    const streaming = latch();
    const release = latch();
    const app = new App().message(/answer (\w+)/, {
      turns,
      ...answering(async (name, signal) => {
        if (name !== "one") return;
        streaming.open();
        await Promise.race([release.opened, new Promise((resolve) => signal.addEventListener("abort", resolve))]);
      }),
    });
    const { root, channel, first, reply } = thread(team, "answer one");
    const second = reply("answer two", user);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledWithin(shard.delivery.events, first.dedupeKey);
      const secondDone = settledWithin(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await streaming.opened;
      await shard.recording.ingest(second);
      const secondWhileFirstRuns = await secondDone(300);
      release.open();
      const outcomes = { first: await firstDone(), second: await secondDone() };
      await shard.delivery.sweep(Date.now());
      return { secondWhileFirstRuns, ...outcomes, stopped: stoppedIn(state).map((row) => row.idempotency_key) };
    });
    return { ...outcome, texts: texts(channel, root), firstKey: first.dedupeKey };
  }

  it("another user's message leaves the running turn alone and queues behind it: the first answer completes, then the second", async () => {
    const outcome = await interrupted("interrupt", OTHER);
    expect(outcome).toMatchObject({ secondWhileFirstRuns: "not yet", first: "delivered", second: "delivered", stopped: [] });
    expect(outcome.texts).toEqual(["answer of one: part 1, part 2", "answer of two: part 1, part 2"]);
  });

  it("the same user's message stops their running turn and is answered", async () => {
    const outcome = await interrupted("interrupt", USER);
    expect(outcome).toMatchObject({ first: "stopped", second: "delivered" });
    expect(outcome.stopped).toEqual([`${outcome.firstKey}:run:message:/answer (\\w+)/`]);
    expect(outcome.texts).toEqual(["answer of one: part 1", "answer of two: part 1, part 2"]);
  });

  it('{ policy: "interrupt", of: "anyone" }: another user\'s message stops the running turn', async () => {
    const outcome = await interrupted({ policy: "interrupt", of: "anyone" }, OTHER);
    expect(outcome).toMatchObject({ first: "stopped", second: "delivered" });
    expect(outcome.texts).toEqual(["answer of one: part 1", "answer of two: part 1, part 2"]);
  });

  it("the policy's shape is checked", () => {
    // @ts-expect-error: "everyone" is not a word of `of`
    const wrong: TurnPolicy = { policy: "interrupt", of: "everyone" };
    expect(wrong).toBeDefined();
  });
});
