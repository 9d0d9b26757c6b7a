import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { AssistantUserMessageArgs } from "../../src/app/assistant";
import type { TurnPolicy } from "../../src/app/listeners";
import { deliverClaimed } from "../../src/delivery/deliverClaimed";
import { HandlerMisuse } from "../../src/platform/errors";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { type ClaimedRow, Outbox } from "../../src/recording/outbox";
import { newRow } from "../../src/recording/outboxRows";
import type { RecordedCall } from "../../src/testing";
import { blockActions, channelMessage, messageTs } from "../../src/testing/deliveries";
import { agentSessionStopped, assistantThreadMessage, dmThread } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery, inboundOf } from "../support/inboundOf";
import { latch } from "../support/latch";
import { stoppedIn } from "../support/outboxRows";
import { shardIn, workspaceShardIn } from "../support/shardIn";
import { LEASE_MS } from "../support/testBindings";
import { answering, answerOf, settledOf, thread } from "../support/turnThreads";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
// Slack's pace per channel is pacing's own tests' business: here both answers share one channel.
const settings = { SLACK_PACING: "false" };

const position = (call: RecordedCall | undefined) => (call ? slack().calls.indexOf(call) : -1);

/** Waits `ms` of real time, for what must NOT happen meanwhile (the clock itself is the test's). */
const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("one turn at a time per thread", () => {
  it("queue (default): a second message 300 ms after the first is answered after the first answer's stop; both texts exact", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const firstStreaming = latch();
    const release = latch();
    const app = new App().message(
      /answer (\w+)/,
      answering(async (name) => {
        if (name !== "one") return;
        firstStreaming.open();
        await release.opened;
      }),
    );
    const { root, channel, first, reply } = thread(team);
    const second = reply("answer two");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      const secondDone = settledOf(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await firstStreaming.opened;
      clock.advance(300);
      const recorded = await shard.recording.ingest(second);
      // The first answer still streams: the second message's run does not begin meanwhile.
      await quietFor(200);
      const startsWhileFirstStreams = slack().callsTo("chat.startStream").length;
      release.open();
      return { recorded, firstDone: await firstDone, secondDone: await secondDone, startsWhileFirstStreams };
    });
    expect(outcome.recorded.verdict).toBe("accepted");
    expect(outcome.firstDone).toBe("delivered");
    expect(outcome.secondDone).toBe("delivered");
    expect(outcome.startsWhileFirstStreams).toBe(1);
    const [firstStart, secondStart] = slack().callsTo("chat.startStream");
    const [firstStop] = slack().callsTo("chat.stopStream");
    expect(position(firstStart)).toBeLessThan(position(firstStop));
    // The second answer's first stream call comes after the first answer's stop.
    expect(position(secondStart)).toBeGreaterThan(position(firstStop));
    expect(
      slack()
        .messagesIn(channel, root)
        .map((message) => [message.text, message.streaming]),
    ).toEqual([
      [answerOf("one"), false],
      [answerOf("two"), false],
    ]);
  });

  // "after": the thread's first turn is its lead (no index row), known to the dead instance only; the new one reads it back.
  it.each(["before", "after"] as const)(
    "the order survives a restart: a new shard over the same storage runs the first turn again before the second (second message recorded %s the restart)",
    async (when) => {
      const clock = controlClock();
      const team = newWorkspace();
      const lostWithTheInstance = latch();
      let attemptsOfOne = 0;
      const app = new App().message(
        /answer (\w+)/,
        answering(async (name) => {
          if (name !== "one" || ++attemptsOfOne > 1) return;
          // The first instance dies in the middle of the first turn: its attempt never settles.
          lostWithTheInstance.open();
          await new Promise(() => {});
        }),
      );
      const { root, channel, first, reply } = thread(team);
      const second = reply("answer two");
      await runInDurableObject(shardStub(team), async (_, state) => {
        const before = await workspaceShardIn(state, { app, settings });
        await before.recording.ingest(first);
        await lostWithTheInstance.opened;
        clock.advance(300);
        if (when === "before") await before.recording.ingest(second);
        // A new shard over the same storage (a new isolate): only the alarm's sweep knows the rows.
        const after = await workspaceShardIn(state, { app, settings });
        if (when === "after") await after.recording.ingest(second);
        const firstDone = settledOf(after.delivery.events, first.dedupeKey);
        const secondDone = settledOf(after.delivery.events, second.dedupeKey);
        clock.advance(LEASE_MS + 1_000);
        await after.delivery.sweep(Date.now());
        expect(await firstDone).toBe("delivered");
        expect(await secondDone).toBe("delivered");
      });
      // The first answer's retry ran before the second; the lost attempt's start is closed or replaced, never the second's.
      const starts = slack().callsTo("chat.startStream");
      const secondStart = starts.at(-1);
      const stops = slack().callsTo("chat.stopStream");
      expect(position(secondStart)).toBeGreaterThan(position(stops[0]));
      const texts = slack()
        .messagesIn(channel, root)
        .map((message) => message.text);
      expect(texts.at(-1)).toBe(answerOf("two"));
      expect(texts).toContain(answerOf("one"));
      expect(texts.indexOf(answerOf("one"))).toBeLessThan(texts.indexOf(answerOf("two")));
    },
  );

  it("a stopped turn releases the thread: another user's message waiting behind it is answered once the stop ends it", async () => {
    controlClock();
    const team = newWorkspace();
    const firstStreaming = latch();
    const app = new App().message(
      /answer (\w+)/,
      answering(async (name, signal) => {
        if (name !== "one") return;
        firstStreaming.open();
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
      }),
    );
    const { root, channel, first, reply } = thread(team);
    const second = reply("answer two", "U0000OTHER");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      const secondDone = settledOf(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await firstStreaming.opened;
      await shard.recording.ingest(second);
      await quietFor(200);
      const callsBeforeStop = slack().calls.length;
      const startsBeforeStop = slack().callsTo("chat.startStream").length;
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: root })));
      return { callsBeforeStop, startsBeforeStop, firstDone: await firstDone, secondDone: await secondDone };
    });
    expect(outcome.startsBeforeStop).toBe(1);
    expect(outcome.firstDone).toBe("stopped");
    expect(outcome.secondDone).toBe("delivered");
    const secondStart = slack().callsTo("chat.startStream")[1];
    expect(position(secondStart)).toBeGreaterThanOrEqual(outcome.callsBeforeStop);
    expect(
      slack()
        .messagesIn(channel, root)
        .find((message) => message.text === answerOf("two")),
    ).toMatchObject({
      streaming: false,
    });
  });

  it("a parked turn releases the thread: the next message is answered after the first run is parked", async () => {
    controlClock();
    const team = newWorkspace();
    const firstStreaming = latch();
    const fail = latch();
    const { root, channel, first, reply } = thread(team);
    const second = reply("answer two");
    const failing = new App().message(
      /answer (\w+)/,
      answering(async (name) => {
        if (name !== "one") return;
        firstStreaming.open();
        await fail.opened;
        throw new HandlerMisuse("[expected fault] parked at once");
      }),
    );
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app: failing, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      const secondDone = settledOf(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await firstStreaming.opened;
      await shard.recording.ingest(second);
      await quietFor(200);
      const startsBeforeParking = slack().callsTo("chat.startStream").length;
      fail.open();
      return { startsBeforeParking, firstDone: await firstDone, secondDone: await secondDone };
    });
    expect(outcome.startsBeforeParking).toBe(1);
    expect(outcome.firstDone).toBe("parked");
    expect(outcome.secondDone).toBe("delivered");
    expect(
      slack()
        .messagesIn(channel, root)
        .find((message) => message.text === answerOf("two")),
    ).toMatchObject({
      streaming: false,
    });
  });

  it("interrupt: the new message stops the running turn as the stop button does (stopped, not parked; signal aborted, stream closed), then runs", async () => {
    controlClock();
    const team = newWorkspace();
    const firstStreaming = latch();
    const aborted = latch<string>();
    const app = new App().message(/answer (\w+)/, {
      turns: "interrupt",
      ...answering(async (name, signal) => {
        if (name !== "one") return;
        firstStreaming.open();
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
        aborted.open(String(signal.reason));
      }),
    });
    const { root, channel, first, reply } = thread(team);
    const second = reply("answer two");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      const secondDone = settledOf(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await firstStreaming.opened;
      await shard.recording.ingest(second);
      const reason = await aborted.opened;
      const [firstOutcome, secondOutcome] = [await firstDone, await secondDone];
      // The interrupted turn's stream is closed by its follow-up row (the sweep delivers it).
      await shard.delivery.sweep(Date.now());
      return { reason, firstOutcome, secondOutcome, parked: shard.operations.listParked(), stopped: stoppedIn(state) };
    });
    expect(outcome.reason).toBe("RunStopped: interrupted by a newer message");
    expect(outcome.firstOutcome).toBe("stopped");
    expect(outcome.secondOutcome).toBe("delivered");
    expect(outcome.parked).toEqual([]);
    expect(outcome.stopped).toMatchObject([
      { idempotency_key: `${first.dedupeKey}:run:message:/answer (\\w+)/`, last_error: "interrupted by a newer message" },
    ]);
    expect(
      slack()
        .messagesIn(channel, root)
        .map((message) => [message.text, message.streaming]),
    ).toEqual([
      ["answer of one: part 1", false],
      [answerOf("two"), false],
    ]);
  });

  it("parallel (today's behaviour): the second message is answered while the first still streams", async () => {
    controlClock();
    const team = newWorkspace();
    const release = latch();
    const app = new App({ turns: "parallel" }).message(
      /answer (\w+)/,
      answering(async (name) => {
        if (name === "one") await release.opened;
      }),
    );
    const { root, channel, first, reply } = thread(team);
    const second = reply("answer two");
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      const secondDone = settledOf(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await shard.recording.ingest(second);
      expect(await secondDone).toBe("delivered");
      release.open();
      expect(await firstDone).toBe("delivered");
    });
    expect(
      slack()
        .messagesIn(channel, root)
        .map((message) => message.text)
        .sort(),
    ).toEqual([answerOf("one"), answerOf("two")]);
  });

  it("a click in the thread and the stop button are never queued behind a running turn", async () => {
    controlClock();
    const team = newWorkspace();
    const release = latch();
    const firstStreaming = latch();
    const clicked = latch();
    const stopSeen = latch();
    const app = new App()
      .message(
        /answer (\w+)/,
        answering(async (name) => {
          if (name !== "one") return;
          firstStreaming.open();
          await release.opened;
        }),
      )
      .action("confirm", async () => clicked.open())
      .event("agent_session_stopped", async () => stopSeen.open());
    const { root, channel, first } = thread(team);
    const click = inboundOf(
      "interaction",
      "block_actions",
      blockActions({ teamId: team, actionId: "confirm", channel, messageTs: root }),
      {
        team,
        id: "click-1",
      },
    );
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      await shard.recording.ingest(first);
      await firstStreaming.opened;
      expect(click.conversation?.key).toBe(first.conversation?.key);
      await shard.recording.ingest(click);
      // Both run while the first turn still streams (it is released only after).
      await clicked.opened;
      // Another user's stop: the first turn is theirs to keep, the stop's own run still runs at once.
      const stop = eventDelivery(team, { ...agentSessionStopped({ channel, threadTs: root }), user: "U0000OTHER" });
      await shard.recording.ingest(stop);
      await stopSeen.opened;
      release.open();
      expect(await firstDone).toBe("delivered");
    });
  });

  /**
   * Two user messages in one assistant thread, the first answer held until `release` opens: where
   * the second answer's first stream call falls, in calls made before the first answer's release.
   */
  async function assistantTurns(turns: TurnPolicy | undefined) {
    controlClock();
    const team = newWorkspace();
    const dm = dmThread();
    const firstStreaming = latch();
    const release = latch();
    const userMessage = async ({ sayStream, event }: AssistantUserMessageArgs) => {
      const name = String(event.text);
      const stream = sayStream();
      await stream.append({ markdown_text: `answer of ${name}: part 1` });
      if (name === "one") {
        firstStreaming.open();
        await release.opened;
      }
      await stream.append({ markdown_text: ", part 2" });
      await stream.stop();
    };
    const app = new App().assistant({ threadStarted: async () => {}, userMessage, ...(turns ? { turns } : {}) });
    const first = eventDelivery(team, assistantThreadMessage(dm, "one"));
    const second = eventDelivery(team, assistantThreadMessage(dm, "two"));
    const startsBeforeRelease = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const firstDone = settledOf(shard.delivery.events, first.dedupeKey);
      const secondDone = settledOf(shard.delivery.events, second.dedupeKey);
      await shard.recording.ingest(first);
      await firstStreaming.opened;
      await shard.recording.ingest(second);
      await quietFor(200);
      const starts = slack().callsTo("chat.startStream").length;
      release.open();
      expect([await firstDone, await secondDone]).toEqual(["delivered", "delivered"]);
      return starts;
    });
    const texts = slack()
      .messagesIn(dm.channel, dm.threadTs)
      .map((message) => message.text);
    return { startsBeforeRelease, texts };
  }

  it("an assistant's userMessage runs are turns: queued in their thread by default", async () => {
    const { startsBeforeRelease, texts } = await assistantTurns(undefined);
    expect(startsBeforeRelease).toBe(1);
    expect(texts).toEqual([answerOf("one"), answerOf("two")]);
  });

  it("app.assistant({ turns: 'parallel' }) answers the second message while the first still streams", async () => {
    const { startsBeforeRelease, texts } = await assistantTurns("parallel");
    expect(startsBeforeRelease).toBe(2);
    expect([...texts].sort()).toEqual([answerOf("one"), answerOf("two")]);
  });

  it("two threads are not serialised against each other", async () => {
    controlClock();
    const team = newWorkspace();
    const release = latch();
    const app = new App().message(
      /answer (\w+)/,
      answering(async (name) => {
        if (name === "one") await release.opened;
      }),
    );
    const one = thread(team);
    const other = eventDelivery(team, {
      ...channelMessage({ text: "answer two", channel: one.channel }),
      thread_ts: messageTs(),
    });
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      const otherDone = settledOf(shard.delivery.events, other.dedupeKey);
      const oneDone = settledOf(shard.delivery.events, one.first.dedupeKey);
      await shard.recording.ingest(one.first);
      await shard.recording.ingest(other);
      expect(await otherDone).toBe("delivered");
      release.open();
      expect(await oneDone).toBe("delivered");
    });
  });
});

describe("what turns cost (rows written, as Durable Objects bill them)", () => {
  it("a row that is no turn writes what it did, and so does a thread's lead turn; a turn that waits adds its index row; waiting is read, not written", async () => {
    const team = newWorkspace();
    const cost = await runInDurableObject(shardStub(team), async (_, state) => {
      applyMigrations(state.storage);
      const sql = new MeteredSql(state.storage.sql, state.storage);
      const outbox = new Outbox(sql);
      const now = Date.now();
      const effect = { type: "slack.api" as const, method: "chat.postMessage", body: { channel: "C1", text: "hi" } };
      const written = (write: () => unknown) => {
        const before = sql.rowsWritten;
        write();
        return sql.rowsWritten - before;
      };
      const lease = (token: string) => ({ token, expiresAt: now + LEASE_MS });
      const conversation = `${team}:C1:1.000001`;
      let waiting: ClaimedRow[] = [];
      return {
        leasesEnd: now + LEASE_MS,
        plain: written(() => outbox.enqueue([newRow("plain", team, effect)], now, lease("a"))),
        first: written(() =>
          outbox.enqueue([{ ...newRow("first", team, effect), turn: outbox.turns.place(conversation, 1) }], now, lease("b")),
        ),
        second: written(() => {
          waiting = outbox.enqueue(
            [{ ...newRow("second", team, effect), turn: outbox.turns.place(conversation, 1) }],
            now,
            lease("c"),
          );
        }),
        waiting,
        claimedWhileHeld: outbox.claimBatch("d", now, LEASE_MS, 10).map((row) => row.idempotency_key),
        nextWakeAt: outbox.nextWakeAt(),
        completed: outbox.complete("first", "b"),
        claimedOnceFree: outbox.claimBatch("e", now, LEASE_MS, 10, conversation).map((row) => row.idempotency_key),
      };
    });
    expect(cost.plain).toBe(1);
    // The thread's lead (no other turn pending) is found through its shard's memory, not an index row.
    expect(cost.first).toBe(1);
    expect(cost.second).toBe(2);
    // Written unleased: its ingest's immediate attempt does not get it, and neither does a claim while the first holds the thread.
    expect(cost.waiting).toMatchObject([{ idempotency_key: "second", waitsForTurn: true }]);
    expect(cost.claimedWhileHeld).toEqual([]);
    // The alarm is armed for the leases of the two leased rows, not for the waiting one (due now).
    expect(cost.nextWakeAt).toBe(cost.leasesEnd);
    expect(cost.completed).toBe(true);
    expect(cost.claimedOnceFree).toEqual(["second"]);
  });

  it("a lead delivered is forgotten by its shard: what it remembers is the leads still pending", async () => {
    const team = newWorkspace();
    const remembered = await runInDurableObject(shardStub(team), async (_, state) => {
      const { outbox, loop } = shardIn(state, { settings });
      const effect = { type: "slack.api" as const, method: "chat.postMessage", body: { channel: "C1", text: "hi" } };
      const lease = { token: "t", expiresAt: Date.now() + LEASE_MS };
      const rows = ["a", "b", "c"].flatMap((thread) =>
        outbox.enqueue(
          [{ ...newRow(`lead-${thread}`, team, effect), turn: outbox.turns.place(`${team}:C1:${thread}`, 1) }],
          Date.now(),
          lease,
        ),
      );
      const before = outbox.turns.leadsRemembered;
      if (!loop.ready) throw new Error("delivery paused");
      await deliverClaimed(loop.ready.courier, lease.token, rows);
      return { before, after: outbox.turns.leadsRemembered, pending: outbox.countsByStatus().pending };
    });
    expect(remembered).toEqual({ before: 3, after: 0, pending: 0 });
  });

  it("a rolled-back lead holds nothing; past the leads a shard keeps, a thread's first turn is indexed (and found) instead", async () => {
    const team = newWorkspace();
    const places = await runInDurableObject(shardStub(team), async (_, state) => {
      applyMigrations(state.storage);
      const outbox = new Outbox(new MeteredSql(state.storage.sql, state.storage), 2);
      const effect = { type: "slack.api" as const, method: "chat.postMessage", body: { channel: "C1", text: "hi" } };
      const conversation = (name: string) => `${team}:C1:${name}`;
      const enqueueTurn = (key: string, thread: string) => {
        const turn = outbox.turns.place(conversation(thread), 1);
        outbox.enqueue([{ ...newRow(key, team, effect), turn }], Date.now(), null);
        return turn;
      };
      try {
        state.storage.transactionSync(() => {
          enqueueTurn("lead-c", "c");
          throw new Error("rolled back");
        });
      } catch {}
      const a = enqueueTurn("lead-a", "a");
      const b = enqueueTurn("lead-b", "b"); // the shard keeps two: the rolled-back one is dropped to make room
      const d = enqueueTurn("first-d", "d"); // no room: indexed
      return {
        made: [a.seq, b.seq, d.seq],
        a: outbox.turns.place(conversation("a"), 1),
        c: outbox.turns.place(conversation("c"), 1),
        d: outbox.turns.place(conversation("d"), 1),
      };
    });
    expect(places.made).toEqual([null, null, 1]);
    expect(places.a).toEqual({ conversation: `${team}:C1:a`, seq: 1, after: "lead-a", waits: true });
    expect(places.c).toMatchObject({ waits: false });
    expect(places.d).toEqual({ conversation: `${team}:C1:d`, seq: 2, waits: true });
  });

  it("a thread's lead parked frees its thread; replayed by an operator it holds it again, found by the index", async () => {
    const team = newWorkspace();
    const places = await runInDurableObject(shardStub(team), async (_, state) => {
      applyMigrations(state.storage);
      const outbox = new Outbox(new MeteredSql(state.storage.sql, state.storage));
      const effect = { type: "slack.api" as const, method: "chat.postMessage", body: { channel: "C1", text: "hi" } };
      const conversation = `${team}:C1:d`;
      outbox.enqueue([{ ...newRow("lead-d", team, effect), turn: outbox.turns.place(conversation, 1) }], Date.now(), null);
      state.storage.sql.exec("UPDATE outbox SET status = 'parked' WHERE idempotency_key = 'lead-d'");
      const whileParked = outbox.turns.place(conversation, 1);
      outbox.parked.replay(Date.now(), ["lead-d"]);
      return { whileParked, afterReplay: outbox.turns.place(conversation, 1) };
    });
    expect(places.whileParked).toEqual({ conversation: `${team}:C1:d`, seq: null, waits: false });
    expect(places.afterReplay).toEqual({ conversation: `${team}:C1:d`, seq: 1, waits: true });
  });
});
