import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { MeteredSql } from "../../src/platform/sql/meteredSql";
import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43, point 2: the demo's mention (src/example/app.ts) — a placeholder posted in a step, then
// updated — writes no row for its step: the post, named in its metadata, is the step's checkpoint.

const slack = useFakeSlack();

/**
 * Rows a delivered demo mention writes, measured on a shard that already recorded one (what a
 * shard writes once is not the event's): its receipt, its run's row, its completion. The
 * placeholder's checkpoint was a fourth.
 */
const DEMO_MENTION_ROWS = 2;

describe("rows written per demo event", () => {
  it("a mention answered with a placeholder and its update writes no row for the placeholder's step", {
    timeout: 30_000,
  }, async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    const answered = async (n: number) => {
      const event = appMention({ text: "<@U0000BOT> what is up" });
      expect((await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()))).status).toBe(200);
      await vi.waitFor(() => expect(slack().callsTo("chat.update")).toHaveLength(n));
      await vi.waitFor(async () => expect((await stub.stats()).outbox.pending).toBe(0));
      return (await stub.stats()).counters.rowsWritten;
    };
    const first = await answered(1);
    // A minute on: the workspace's pace for chat.update (src/pacing/) lets the next one go at once, unpostponed.
    clock.advance(60_000);
    const second = await answered(2);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(2);
    expect(second - first).toBe(DEMO_MENTION_ROWS);
  });
});

/**
 * SQL statements a delivered demo mention runs in its shard (issue 43, point 3): a statement costs the
 * shard's one thread far more than the look-ups in it, so the hot path is held to: its dedupe (one
 * statement for every table a receipt can be in), its row's INSERT, its completion's UPDATE (no read
 * before it). It was 11: four more for the dedupe, the row's size and its status read before the
 * completion; then 5: the turn's place and the thread's next turn, read from the turns index, are
 * answered from the shard's memory of its threads once its walk is complete (recording/indexedThreads.ts).
 */
const DEMO_MENTION_STATEMENTS = 3;

describe("SQL statements per demo event", () => {
  it("a delivered mention runs 3 statements: dedupe, insert, completion", { timeout: 30_000 }, async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    // Read from the live shard without running SQL through its door (stats() would add its own counts).
    const statements = () =>
      runInDurableObject(stub, (shard) => (shard as unknown as { storage: { sql: MeteredSql } }).storage.sql.statements);
    const live = () =>
      runInDurableObject(
        stub,
        (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").one().n,
      );
    const answered = async (n: number) => {
      const event = appMention({ text: "<@U0000BOT> what is up" });
      expect((await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()))).status).toBe(200);
      await vi.waitFor(() => expect(slack().callsTo("chat.update")).toHaveLength(n));
      await vi.waitFor(async () => expect(await live()).toBe(0));
    };
    await answered(1);
    // The workspace's pace for chat.update lets the next go at once; the Worker's copy of the bucket layouts is still fresh.
    clock.advance(2_000);
    const before = await statements();
    await answered(2);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(2);
    expect((await statements()) - before).toBe(DEMO_MENTION_STATEMENTS);
  });
});
