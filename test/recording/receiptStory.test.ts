import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { recordSettings } from "../../src/settings";
import { appMention } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { mentionIn } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42, point 1: the story's head rides on the receipt INSERT a delivery does anyway.

useFakeSlack();

/** Rows a mention's ingest writes: its outbox row, which carries its receipt (migrations/0028_folded_receipts.sql). */
const INGEST_ROWS = 1;

type Kept = { channel: string; user_id: string; thread_ts: string; effects: string; payload: string | null; bytes: number };

/** Ingests one mention under EVENT_PAYLOADS=`keeping`: the rows it wrote and what its receipt kept. */
async function ingested(keeping: string) {
  const team = newWorkspace();
  return runInDurableObject(shardStub(team), async (_, state) => {
    const shard = await workspaceShardIn(state, { settings: { EVENT_PAYLOADS: keeping, SLACK_PACING: "false" } });
    // A first mention: what a shard writes once (its schema, its generation's table, its registration) is not counted below.
    await shard.recording.ingest(mentionIn(team, "C0KEPT000", "1765000000.000050", "Ev0KEPT00"));
    const before = shard.operations.stats().counters.rowsWritten;
    await shard.recording.ingest(mentionIn(team, "C0KEPT001", "1765000000.000100", "Ev0KEPT01", "<@U0BOT> the secret plan"));
    const rows = shard.operations.stats().counters.rowsWritten - before;
    const kept = state.storage.sql
      .exec<Kept>(
        `SELECT channel, user_id, thread_ts, effects, receipt_payload AS payload,
           length(channel) + length(user_id) + length(thread_ts) + length(effects) + coalesce(length(receipt_payload), 0) AS bytes
         FROM outbox WHERE receipt_key = 'Ev0KEPT01'`,
      )
      .one();
    return { rows, kept };
  });
}

describe("a receipt keeps its delivery's story (EVENT_PAYLOADS)", () => {
  it("full: ids, effect keys and the payload, in the same rows as before", async () => {
    const { rows, kept } = await ingested("full");
    expect(rows).toBe(INGEST_ROWS);
    expect(kept).toMatchObject({ channel: "C0KEPT001", user_id: "U0ASKER", thread_ts: "1765000000.000100" });
    expect(JSON.parse(kept.effects)).toEqual(["Ev0KEPT01:run:event:app_mention"]);
    expect(JSON.parse(kept.payload!).event).toMatchObject({ text: "<@U0BOT> the secret plan", channel: "C0KEPT001" });
    // What a mention's story adds to its receipt, in bytes (docs/guides/operations.md "An event's story").
    expect(kept.bytes).toBeLessThan(700);
  });

  it("redacted: ids kept, what the person wrote removed; none: no payload at all", async () => {
    const redacted = await ingested("redacted");
    expect(redacted.rows).toBe(INGEST_ROWS);
    const event = JSON.parse(redacted.kept.payload!).event;
    expect(event).toMatchObject({ type: "app_mention", user: "U0ASKER", channel: "C0KEPT001", ts: "1765000000.000100" });
    expect(event).not.toHaveProperty("text");
    expect(redacted.kept.payload).not.toContain("secret plan");
    const none = await ingested("none");
    expect(none.rows).toBe(INGEST_ROWS);
    expect(none.kept).toMatchObject({ channel: "C0KEPT001", payload: null });
    expect(none.kept.bytes).toBeLessThan(100);
  });
});

describe("a generation's table begun by an earlier version", () => {
  it("gains the story's columns at its next ingest: its old receipts are still found, its new ones keep their story", async () => {
    const team = newWorkspace();
    const generation = Math.floor(Date.now() / recordSettings(env).receiptRetentionMs);
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => {
      applyMigrations(state.storage);
      state.storage.sql.exec(
        `CREATE TABLE receipts_g${generation} (dedupe_key TEXT PRIMARY KEY, kind TEXT NOT NULL, type TEXT NOT NULL, workspace TEXT NOT NULL,
          retry_num INTEGER, retry_reason TEXT, response TEXT, received_at INTEGER NOT NULL) WITHOUT ROWID`,
      );
      state.storage.sql.exec(
        `INSERT INTO receipts_g${generation} (dedupe_key, kind, type, workspace, received_at) VALUES ('Ev0OLDER01', 'event', 'app_mention', ?, ?)`,
        team,
        Date.now(),
      );
    });
    await evictDurableObject(stub);
    const { envelope, delivery } = await mentionDelivery(team, { event: appMention({ channel: "C0UPGRADE" }) });
    expect((await deliver(delivery)).status).toBe(200);
    expect(await stub.eventStory("Ev0OLDER01")).toMatchObject({ id: "Ev0OLDER01", channel: null, effects: [], payload: null });
    expect(await stub.eventStory(String(envelope.event_id))).toMatchObject({ channel: "C0UPGRADE", workspace: team });
  });
});
