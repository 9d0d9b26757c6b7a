import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { STOPPED_RETENTION_MS } from "../../src/recording/stoppedRows";
import { recordSettings } from "../../src/settings";
import { freshShard } from "../support/coordinator";
import { mentionIn } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 43 point 2: a delivery with an outbox row writes no receipt row — its first row carries the
// receipt (migrations/0028_folded_receipts.sql) — and Slack's retries are still duplicates wherever
// that row is: live, done, filed with its generation, or deleted (a discarded dead letter).

const slack = useFakeSlack();
afterEach(() => vi.restoreAllMocks());

const receiptRows = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'receipts_g[0-9]*'")
    .toArray()
    .reduce((n, { name }) => n + state.storage.sql.exec(`SELECT 1 FROM ${name}`).toArray().length, 0);

describe("the receipt carried by the delivery's row", () => {
  it("a retry after the row is done, and after its generation was filed, is a duplicate: one reply, no receipt row", async () => {
    const retention = recordSettings(env).receiptRetentionMs;
    const seen = await runInDurableObject(freshShard("T0FOLD"), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: "T0FOLD/0" });
      const mention = () => mentionIn("T0FOLD", "C0FOLD", "1700000000.000100", "EvFold1");
      const first = (await shard.recording.ingest(mention())).verdict;
      const whileLive = (await shard.recording.ingest({ ...mention(), retryNum: 1, retryReason: "http_timeout" })).verdict;
      await vi.waitFor(() => expect(shard.recording.eventStory("EvFold1")?.status).toBe("done"));
      const whenDone = (await shard.recording.ingest({ ...mention(), retryNum: 2, retryReason: "http_timeout" })).verdict;
      // A generation on: the done row is filed (outbox_g…), still in the receipt window.
      vi.spyOn(Date, "now").mockReturnValue((Math.floor(Date.now() / retention) + 1) * retention + 60_000);
      shard.recording.prune(Date.now());
      const filed = state.storage.sql.exec("SELECT 1 FROM outbox WHERE receipt_key = 'EvFold1'").toArray().length;
      const whenFiled = (await shard.recording.ingest(mention())).verdict;
      const story = shard.recording.eventStory("EvFold1");
      return { first, whileLive, whenDone, filed, whenFiled, status: story?.status, receipts: receiptRows(state) };
    });
    expect(seen).toEqual({
      first: "accepted",
      whileLive: "duplicate",
      whenDone: "duplicate",
      filed: 0,
      whenFiled: "duplicate",
      status: "done",
      receipts: 0,
    });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("a retry after its parked row was discarded is a duplicate: the DELETE kept its receipt as a row", async () => {
    const seen = await runInDurableObject(freshShard("T0FOLDX"), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: "T0FOLDX/0" });
      slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
      const mention = () => mentionIn("T0FOLDX", "C0FOLDX", "1700000000.000100", "EvFoldX");
      const first = (await shard.recording.ingest(mention())).verdict;
      await vi.waitFor(() => expect(shard.recording.eventStory("EvFoldX")?.status).toBe("parked"));
      const before = receiptRows(state);
      const discarded = shard.operations.discardParked(null);
      const retry = (await shard.recording.ingest({ ...mention(), retryNum: 1, retryReason: "http_timeout" })).verdict;
      return {
        first,
        before,
        discarded,
        retry,
        after: receiptRows(state),
        settled: shard.recording.eventStory("EvFoldX")?.status,
      };
    });
    expect(seen).toEqual({ first: "accepted", before: 0, discarded: 1, retry: "duplicate", after: 1, settled: "settled" });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("a retry after its stopped run was pruned (a day on, inside the window) is a duplicate: the prune kept its receipt", async () => {
    const seen = await runInDurableObject(freshShard("T0FOLDS"), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: "T0FOLDS/0" });
      slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
      const mention = () => mentionIn("T0FOLDS", "C0FOLDS", "1700000000.000100", "EvFoldS");
      await shard.recording.ingest(mention());
      await vi.waitFor(() => expect(shard.recording.eventStory("EvFoldS")?.status).toBe("parked"));
      // Stopped a day and more ago (a stopped run is stored parked with stopped_at: rowStatus.ts).
      state.storage.sql.exec(
        "UPDATE outbox SET stopped_at = ? WHERE receipt_key = 'EvFoldS'",
        Date.now() - STOPPED_RETENTION_MS - 1,
      );
      shard.recording["parts"].outbox.stopped.prune(Date.now());
      const left = state.storage.sql.exec("SELECT 1 FROM outbox WHERE receipt_key = 'EvFoldS'").toArray().length;
      const retry = (await shard.recording.ingest({ ...mention(), retryNum: 2, retryReason: "http_timeout" })).verdict;
      return { left, retry, receipts: receiptRows(state) };
    });
    expect(seen).toEqual({ left: 0, retry: "duplicate", receipts: 1 });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });
});
