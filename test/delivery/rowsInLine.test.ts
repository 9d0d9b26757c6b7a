import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { IMMEDIATE_IN_FLIGHT_MAX } from "../../src/delivery/deliveryLoop";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import type { ShardStorage } from "../../src/recording/shardStorage";
import type { IngestResult } from "../../src/rpc/shard";
import type { WorkspaceShard } from "../../src/shard/workspaceShard";
import { controlClock } from "../support/clock";
import { freshShard } from "../support/coordinator";
import { mentionIn } from "../support/inboundOf";
import { shardIn, workspaceShardIn } from "../support/shardIn";
import { LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43 (a): rows an ingest writes while the shard's line is full (64 immediate attempts in
// flight) wait in memory, leased from their INSERT to the token their attempt will use, so
// beginning that attempt writes nothing. The price is paid only after a crash: a take-over cannot
// tell a row in line from an attempt that began, so it looks such a row's posts up first.

const slack = useFakeSlack();

const TEAM = "T0INLINE";
/** Rows past the line's 64 in flight in the counted batch. */
const WAITING = 16;
/** Pacing is not what is counted here: each row is attempted once. */
const settings = { SLACK_PACING: "false" };
const ts = (n: number) => `1700000000.${String(n).padStart(6, "0")}`;
const accepted = (shard: WorkspaceShard, inbound: ReturnType<typeof mentionIn>) =>
  expect((shard.recording.ingest(inbound) as IngestResult).verdict).toBe("accepted");

describe("rows waiting in the line of immediate attempts", () => {
  it("write what a row that starts at once writes: no lease statement as their attempt begins", { timeout: 60_000 }, async () => {
    controlClock();
    const stub = freshShard("in-line");
    const statements = vi.spyOn(MeteredSql.prototype, "all");
    const counted = await runInDurableObject(stub, async (_, state) => {
      const shard = await workspaceShardIn(state, { name: `${TEAM}/0`, settings });
      // The shard's own door to SQLite, read without running SQL through it (stats() would add its own).
      const { sql } = (shard as unknown as { storage: ShardStorage }).storage;
      const live = () => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").one().n;
      let n = 0;
      const mention = () => {
        n++;
        return mentionIn(TEAM, `C0INLINE${n}`, ts(n), `EvInLine${n}`);
      };
      const delivered = async () => {
        await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(n), { timeout: 30_000 });
        await vi.waitFor(() => expect(live()).toBe(0), { timeout: 30_000 });
      };
      const spent = async (ingest: () => void) => {
        const [rows, count] = [sql.rowsWritten, sql.statements];
        ingest();
        await delivered();
        return { rows: sql.rowsWritten - rows, statements: sql.statements - count };
      };
      // What a shard writes once is not an event's.
      await spent(() => accepted(shard, mention()));
      const one = await spent(() => accepted(shard, mention()));
      statements.mockClear();
      let line = { inFlight: 0, waiting: 0 };
      // Synchronous ingests: nothing settles between them, so the first 64 start and the rest wait in line.
      const batch = await spent(() => {
        for (let i = 0; i < IMMEDIATE_IN_FLIGHT_MAX + WAITING; i++) accepted(shard, mention());
        line = shard.delivery.ready!.immediate.counts();
      });
      return { one, batch, line };
    });
    expect(counted.line).toEqual({ inFlight: IMMEDIATE_IN_FLIGHT_MAX, waiting: WAITING });
    const events = IMMEDIATE_IN_FLIGHT_MAX + WAITING;
    expect(counted.batch).toEqual({ rows: events * counted.one.rows, statements: events * counted.one.statements });
    expect(counted.one.rows).toBe(2);
    // No lease statement (a claim, a renewal, a hand-over: `UPDATE outbox SET claim_…`); the hand-over was one per row that waited.
    const leaseStatements = statements.mock.calls
      .map(([query]) => query)
      .filter((query) => /^\s*UPDATE outbox SET claim_/.test(query));
    expect(leaseStatements).toEqual([]);
  });

  it("a row in line when its isolate dies is taken over once its lease runs out: its post is looked for first, then made once", {
    timeout: 60_000,
  }, async () => {
    const clock = controlClock();
    const name = `in-line-crash-${crypto.randomUUID()}`;
    const stub = () => env.SHARD.get(env.SHARD.idFromName(name));
    const channel = "C0INLINE";
    let holding = true;
    // "hold" mentions keep the line full (no call, so nothing of theirs to look up); the row in line replies.
    const app = new App().event("app_mention", async ({ event, say }) => {
      if (event!.text === "hold") {
        if (holding) await new Promise(() => {});
        return;
      }
      await say({ text: "reply", thread_ts: String(event!.ts) });
    });
    const inLine = ts(999);
    const line = await runInDurableObject(stub(), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, name: `${TEAM}/0`, settings });
      for (let i = 0; i < IMMEDIATE_IN_FLIGHT_MAX; i++) accepted(shard, mentionIn(TEAM, channel, ts(i), `EvHeld${i}`, "hold"));
      accepted(shard, mentionIn(TEAM, channel, inLine, "EvWaiting"));
      return shard.delivery.ready!.immediate.counts();
    });
    expect(line).toEqual({ inFlight: IMMEDIATE_IN_FLIGHT_MAX, waiting: 1 });
    // The isolate dies with its attempts and its line (a stub to it is broken: the next one reaches a new instance).
    await abortAllDurableObjects();
    holding = false;
    clock.advance(LEASE_MS + 1);
    const pending = await runInDurableObject(stub(), async (_, state) => {
      const { loop, outbox } = shardIn(state, { app, name: `${TEAM}/0`, settings });
      for (let i = 0; i < 8 && outbox.countsByStatus().pending > 0; i++) {
        await loop.sweep(Date.now());
        clock.advance(30_000);
      }
      return outbox.countsByStatus().pending;
    });
    expect(pending).toBe(0);
    // It may have posted for all the take-over knows: one look at its thread, which finds nothing, then one post.
    expect(
      slack()
        .callsTo("conversations.replies")
        .map((call) => call.body.ts),
    ).toEqual([inLine]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body.thread_ts),
    ).toEqual([inLine]);
    expect(
      slack()
        .messagesIn(channel, inLine)
        .map((message) => message.text),
    ).toEqual(["reply"]);
  });
});
