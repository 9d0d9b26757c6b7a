import { describe, expect, it, vi } from "vitest";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42: an event's story is kept in the rows it writes anyway — a delivered mention writes no row more.

const slack = useFakeSlack();

/**
 * Rows a delivered mention writes, measured on a shard that already recorded one (what a shard
 * writes once — its schema, its generation's table, its registration — is not the event's):
 * its outbox row, which carries its receipt (issue 43: migrations/0028_folded_receipts.sql), and its
 * completion. Three before the receipt was folded into the row; three before the story was kept.
 */
const DELIVERED_MENTION_ROWS = 2;

describe("rows written per event with the story kept", () => {
  it("a delivered mention writes 2 rows: its row carrying its receipt, and its completion", { timeout: 30_000 }, async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const delivered = async (n: number) => {
      expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
      await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(n));
      await vi.waitFor(async () => expect((await stub.stats()).outbox.pending).toBe(0));
      return (await stub.stats()).counters.rowsWritten;
    };
    const first = await delivered(1);
    const second = await delivered(2);
    expect(second - first).toBe(DELIVERED_MENTION_ROWS);
  });
});
