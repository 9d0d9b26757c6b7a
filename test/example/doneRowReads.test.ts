import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { MeteredSql } from "../../src/platform/sql/meteredSql";
import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43: a shard keeps its delivered rows (done, with their stories) until their generation is
// filed, so after minutes at 300/s it holds tens of thousands. What a new event's statements read
// must not grow with them: its dedupe, its INSERT and its completion each read keys or a key range.

const slack = useFakeSlack();

/** Copies of the shard's one done row under new keys (its delivery's receipt too), `n` of them. */
function keepDoneRows(state: DurableObjectState, n: number): void {
  const columns = state.storage.sql
    .exec<{ name: string }>("SELECT name FROM pragma_table_info('outbox')")
    .toArray()
    .map((column) => column.name);
  const key = "'EvDONE' || printf('%08d', i)";
  const values = columns.map((name) =>
    name === "idempotency_key" ? `${key} || ':run:event:app_mention'` : name === "receipt_key" ? key : name,
  );
  state.storage.sql.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO outbox (${columns.join(", ")}) SELECT ${values.join(", ")} FROM n, (SELECT * FROM outbox WHERE done_at IS NOT NULL LIMIT 1)`,
    n,
  );
}

describe("done rows kept cost a new event's statements nothing", () => {
  it("with 20,000 done rows kept, a delivered mention reads as many rows as beside one", { timeout: 60_000 }, async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    const door = () =>
      runInDurableObject(stub, (shard) => {
        const { rowsRead, statements } = (shard as unknown as { storage: { sql: MeteredSql } }).storage.sql;
        return { rowsRead, statements };
      });
    const doneRows = () =>
      runInDurableObject(
        stub,
        (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE done_at IS NOT NULL").one().n,
      );
    const answered = async (n: number) => {
      const before = await door();
      const event = appMention({ text: "<@U0000BOT> what is up" });
      expect((await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()))).status).toBe(200);
      await vi.waitFor(() => expect(slack().callsTo("chat.update")).toHaveLength(n));
      await vi.waitFor(async () => expect(await doneRows()).toBeGreaterThanOrEqual(n));
      const after = await door();
      // A minute on: the workspace's pace lets the next update go at once.
      clock.advance(60_000);
      return { rowsRead: after.rowsRead - before.rowsRead, statements: after.statements - before.statements };
    };
    await answered(1);
    const beside = await answered(2);
    await runInDurableObject(stub, (_, state) => keepDoneRows(state, 20_000));
    expect(await doneRows()).toBe(20_002);
    const amongMany = await answered(3);
    expect(amongMany.statements).toBe(beside.statements);
    expect(amongMany.rowsRead).toBe(beside.rowsRead);
    expect(beside.rowsRead).toBeLessThan(20);
  });
});
