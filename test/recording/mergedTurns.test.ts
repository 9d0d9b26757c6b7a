import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { BURST_PAYLOAD_MAX } from "../../src/parts/turns";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { latch } from "../support/latch";
import { workspaceShardIn } from "../support/shardIn";
import { settledWithin, thread } from "../support/turnThreads";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 41, point 5: what a merged message costs the shard, and where a burst ends (its run began).

const slack = useFakeSlack();
const settings = { SLACK_PACING: "false" };
const QUIET_MS = 1_500;
/**
 * Rows a merged message writes (measured): its receipt, the burst's row updated, and that row's
 * entry in the index of due rows moved to its new due time. The burst's first message writes 6.
 */
const MERGED_COST = 3;

/** Answers a burst in one reply; `hold` keeps its run going until the test lets it end. */
function burstApp(hold: () => Promise<void> = async () => {}) {
  return new App().message(/^burst /, {
    turns: "merge",
    run: async ({ messages, say }) => {
      await hold();
      await say(`heard ${messages!.length}: ${messages!.map((message) => message.text).join(" | ")}`);
    },
  });
}

/** Live rows (a done row is kept with its story: migrations/0026_done_rows.sql). */
const rowsIn = (state: DurableObjectState) =>
  state.storage.sql.exec("SELECT 1 FROM outbox WHERE done_at IS NULL").toArray().length;

describe('turns: "merge" in the shard', () => {
  it("a message taken into a burst writes its receipt and one update of the burst's row: no row of its own", async () => {
    controlClock();
    const team = newWorkspace();
    const { first, reply } = thread(team, "burst one");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app: burstApp(), settings });
      const written = async (ingest: () => unknown) => {
        const before = shard.operations.stats().counters.rowsWritten;
        await ingest();
        return shard.operations.stats().counters.rowsWritten - before;
      };
      const firstCost = await written(() => shard.recording.ingest(first));
      const mergedCost = [
        await written(() => shard.recording.ingest(reply("burst two"))),
        await written(() => shard.recording.ingest(reply("burst three"))),
      ];
      const [row] = state.storage.sql.exec<{ payload: string }>("SELECT payload FROM outbox").toArray();
      return {
        firstCost,
        mergedCost,
        rows: rowsIn(state),
        merged: JSON.parse(row!.payload).merged.map((e: { text: string }) => e.text),
      };
    });
    expect(outcome.rows).toBe(1);
    expect(outcome.merged).toEqual(["burst two", "burst three"]);
    // The first also pays the shard's first schema rows: its receipt generation's table, and the outbox filing's first mark (outboxFiling.ts: 2, once per shard);
    // its receipt is carried by its row (foldedReceipts.ts), one row fewer. A merged message's receipt is its own row: it has none.
    expect(outcome).toMatchObject({ firstCost: 7, mergedCost: [MERGED_COST, MERGED_COST] });
  });

  it("a burst is one turn for the turn budgets: counted at its first message, the messages that join it neither counted nor refused", async () => {
    controlClock();
    const team = newWorkspace();
    const { first, reply } = thread(team, "burst one");
    const app = new App({ limits: { turnsPerUser: { perMinute: 1 } } }).message(/^burst /, {
      turns: "merge",
      run: async ({ say }) => {
        await say("answered");
      },
    });
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      for (const inbound of [first, reply("burst two"), reply("burst three")]) await shard.recording.ingest(inbound);
      const rows = state.storage.sql.exec<{ effect: string; payload: string }>("SELECT effect, payload FROM outbox").toArray();
      const counted = state.storage.sql.exec<{ minute_count: number }>("SELECT minute_count FROM turn_budgets").toArray();
      return {
        rows: rows.length,
        merged: JSON.parse(rows[0]!.payload).merged?.map((e: { text: string }) => e.text),
        counted: counted.map((row) => row.minute_count),
        refused: shard.operations.stats().counters.turnsRefused ?? 0,
      };
    });
    // One row (the burst's run; no refusal's ephemeral), both later messages in it, one turn counted.
    expect(outcome).toEqual({ rows: 1, merged: ["burst two", "burst three"], counted: [1], refused: 0 });
  });

  it("a message after the burst's run began is a turn of its own, run once that one has ended", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const started = latch();
    const release = latch();
    const app = burstApp(async () => {
      started.open();
      await release.opened;
    });
    const { first, reply } = thread(team, "burst one");
    const later = reply("burst two");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings });
      await shard.recording.ingest(first);
      const firstDone = settledWithin(shard.delivery.events, first.dedupeKey);
      const laterDone = settledWithin(shard.delivery.events, later.dedupeKey);
      clock.advance(QUIET_MS);
      const sweeping = shard.delivery.sweep(Date.now());
      await started.opened;
      await shard.recording.ingest(later);
      const whileRunning = rowsIn(state);
      release.open();
      await sweeping;
      return { whileRunning, first: await firstDone(), later: await laterDone(), rows: rowsIn(state) };
    });
    expect(outcome).toEqual({ whileRunning: 2, first: "delivered", later: "delivered", rows: 0 });
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body.text),
    ).toEqual(["heard 1: burst one", "heard 1: burst two"]);
  });

  it("a burst's row takes in no message past its payload bound (well under 2 MB a row): the next starts a turn of its own", async () => {
    controlClock();
    const team = newWorkspace();
    // Slack's longest message text: 40,000 characters.
    const long = (n: number) => `burst ${n} ${"x".repeat(40_000)}`;
    const { first, reply } = thread(team, long(1));
    const rows = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app: burstApp(), settings });
      await shard.recording.ingest(first);
      for (let n = 2; n <= 8; n++) await shard.recording.ingest(reply(long(n)));
      return state.storage.sql
        .exec<{ messages: number; bytes: number }>(
          `SELECT coalesce(json_array_length(payload, '$.merged'), 0) + 1 AS messages, length(CAST(payload AS BLOB)) AS bytes
            FROM outbox ORDER BY created_at, turn_seq`,
        )
        .toArray();
    });
    expect(rows.map((row) => row.messages)).toEqual([6, 2]);
    for (const row of rows) expect(row.bytes).toBeLessThanOrEqual(BURST_PAYLOAD_MAX);
  });
});
