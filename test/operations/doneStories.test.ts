import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { exampleApp } from "../../src/example/app";
import { WaitStore } from "../../src/parts/waits";
import { recordSettings } from "../../src/settings";
import { controlClock } from "../support/clock";
import { freshShard } from "../support/coordinator";
import { mentionIn } from "../support/inboundOf";
import { outboxOf, recordPlanned, workspaceShardIn } from "../support/shardIn";
import { testApp } from "../support/testApp";
import { LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42 point 1 (the rest): a delivered row is kept, done, with its story — its completion
// UPDATEs it instead of deleting it (migrations/0026_done_rows.sql) — at no row more per event, and
// pruned with its generation's table (recording/outboxFiling.ts).

const slack = useFakeSlack();
afterEach(() => vi.restoreAllMocks());

const tables = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'outbox*' ORDER BY name")
    .toArray()
    .map((table) => table.name);

describe("a delivered event's story", () => {
  it("the demo's mention: done, its one attempt with both of its calls (the placeholder's post and its update)", async () => {
    const story = await runInDurableObject(freshShard("T0DONE"), async (_, state) => {
      const shard = await workspaceShardIn(state, { app: exampleApp, name: "T0DONE/0" });
      const mention = mentionIn("T0DONE", "C0DONE", "1700000000.000100", "EvDone1", "<@U0000BOT> count these words");
      await shard.recording.ingest(mention);
      // The demo's mention is fact-scoped: its story's head is the message's fact receipt.
      const listed = () => shard.recording.listEvents({ limit: 5 });
      await vi.waitFor(() => expect(listed()[0]?.status).toBe("done"));
      const [event] = listed();
      // Keyed by its message alone, it has no receipt of its own: its event_id finds its message's fact receipt.
      expect(event!.id).toMatch(/^fact:/);
      expect(shard.recording.eventStory("EvDone1")?.id).toBe(event!.id);
      expect(shard.recording.eventStory("EvNeverSeen")).toBeNull();
      return shard.recording.eventStory(event!.id);
    });
    expect(slack().callsTo("chat.update")).toHaveLength(1);
    expect(story?.effects).toEqual([
      expect.objectContaining({ status: "done", effect: "run", attempts: 0, leased: false, nextAttemptAt: null }),
    ]);
    const [attempt, ...more] = story!.effects[0]!.history;
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ outcome: "done" });
    expect(attempt).not.toHaveProperty("error");
    expect(attempt!.calls.map((call) => [call.method, call.ok])).toEqual([
      ["chat.postMessage", true],
      ["chat.update", true],
    ]);
    expect(attempt!.calls[0]!.ts).toEqual(expect.any(String));
    // The placeholder's post was its own checkpoint (no row of its own): the completion's UPDATE wrote it, so the story names it.
    expect(story!.effects[0]!.messages).toEqual([
      { kind: "post", name: "placeholder", channel: "C0DONE", ts: attempt!.calls[0]!.ts },
    ]);
  });

  it("a run whose first attempt lost its lease: that attempt as lease_lost, then the taker's, done; the done row is claimed, counted and listed by nothing", async () => {
    const clock = controlClock();
    const found = await runInDurableObject(freshShard("story-taken"), async (_, state) => {
      const outbox = outboxOf(state);
      const lease = { token: "first", expiresAt: Date.now() + LEASE_MS };
      recordPlanned(outbox, testApp, mentionIn("T0TAKEN", "C0TAKEN", "1700000000.000100", "EvTaken"), lease);
      clock.advance(LEASE_MS + 1);
      const [taken] = outbox.claimBatch("taker", Date.now(), LEASE_MS, 10);
      const key = taken!.idempotency_key;
      const done = JSON.stringify({ start: Date.now(), end: Date.now() + 3, outcome: "done", calls: [] });
      const completed = [outbox.complete(key, "first"), outbox.complete(key, "taker", done), outbox.complete(key, "taker", done)];
      // Nothing that asks for pending rows sees a done one, however long after.
      clock.advance(10 * LEASE_MS);
      const row = state.storage.sql
        .exec<{ story: string; done_at: number | null; payload: string }>(
          "SELECT story, done_at, payload FROM outbox WHERE idempotency_key = ?",
          key,
        )
        .one();
      return {
        completed,
        outcomes: (JSON.parse(row.story) as { outcome: string }[]).map((attempt) => attempt.outcome),
        doneAt: row.done_at,
        // Its payload (what people wrote) is not kept on a done row: the receipt keeps it as EVENT_PAYLOADS says.
        payload: row.payload,
        claimed: outbox.claimBatch("later", Date.now(), LEASE_MS, 10).length,
        claimedAgain: outbox.claimBatch("taker", Date.now(), LEASE_MS, 10).length,
        counts: outbox.countsByStatus(),
        parked: outbox.parked.list(10, "oldest first").length,
        holds: outbox.holds(key, "taker"),
        renewed: outbox.renewLease(key, "taker", Date.now() + LEASE_MS),
        woken: new WaitStore(outbox.sql).wake(key, Date.now()),
        nextWake: outbox.nextWakeAt(),
        // A new instance's walk passes over it: counted nowhere, no lease learnt.
        walked: outboxOf(state).countsByStatus(),
      };
    });
    expect(found.completed).toEqual([false, true, false]);
    expect(found.outcomes).toEqual(["lease_lost", "done"]);
    expect(found.doneAt).toEqual(expect.any(Number));
    expect(found.payload).toBe("{}");
    expect(found).toMatchObject({
      claimed: 0,
      claimedAgain: 0,
      parked: 0,
      holds: false,
      renewed: false,
      woken: false,
      nextWake: null,
    });
    expect(found.counts).toEqual({ pending: 0, parked: 0, stopped: 0 });
    expect(found.walked).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("rows per delivered event: the row carrying its receipt, and its completion — 2 (issue 43: the receipt folded into the row)", async () => {
    const written = await runInDurableObject(freshShard("T0ROWS"), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: "T0ROWS/0" });
      const rows = () => shard.operations.stats().counters.rowsWritten;
      await shard.recording.ingest(mentionIn("T0ROWS", "C0ROWS", "1700000000.000100", "EvWarm"));
      await vi.waitFor(() => expect(shard.recording.eventStory("EvWarm")?.status).toBe("done"));
      const before = rows();
      await shard.recording.ingest(mentionIn("T0ROWS", "C0ROWS", "1700000000.000200", "EvRows"));
      await vi.waitFor(() => expect(shard.recording.eventStory("EvRows")?.status).toBe("done"));
      return rows() - before;
    });
    expect(written).toBe(2);
  });
});

describe("done rows filed by generation", () => {
  it("a generation's done rows are filed with it and still found; live rows carried forward; dropped two generations on (404)", async () => {
    const retention = recordSettings(env).receiptRetentionMs;
    const seen = await runInDurableObject(freshShard("T0FILED"), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: "T0FILED/0" });
      slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
      await shard.recording.ingest(mentionIn("T0FILED", "C0FILED", "1700000000.000100", "EvParked"));
      await vi.waitFor(() => expect(shard.recording.eventStory("EvParked")?.status).toBe("parked"));
      await shard.recording.ingest(mentionIn("T0FILED", "C0FILED", "1700000000.000200", "EvFiled"));
      await vi.waitFor(() => expect(shard.recording.eventStory("EvFiled")?.status).toBe("done"));
      const start = Date.now();
      const at = (generations: number) => {
        vi.spyOn(Date, "now").mockReturnValue((Math.floor(start / retention) + generations) * retention + 60_000);
        shard.recording.prune(Date.now());
        return {
          tables: tables(state),
          filed: shard.recording.eventStory("EvFiled")?.effects[0]?.status ?? null,
          parked: shard.recording.eventStory("EvParked")?.effects[0]?.status ?? null,
          listedParked: shard.operations.stats().outbox.parked,
          liveRows: state.storage.sql.exec("SELECT 1 FROM outbox").toArray().length,
        };
      };
      return { generation: Math.floor(start / retention), now: at(0), next: at(1), after: at(2) };
    });
    const { generation } = seen;
    // The first filing marks the generation before as filed; nothing moves.
    expect(seen.now).toMatchObject({ filed: "done", parked: "parked", listedParked: 1, liveRows: 2 });
    expect(seen.now.tables).toEqual(["outbox", `outbox_g${generation - 1}`]);
    // A generation later: the done row is in its generation's table, still found; the parked one carried forward alone.
    expect(seen.next).toMatchObject({ filed: "done", parked: "parked", listedParked: 1, liveRows: 1 });
    expect(seen.next.tables).toEqual(["outbox", `outbox_g${generation}`]);
    // Two on: that table is dropped whole (its receipts too): the story is gone; the parked row lives on.
    expect(seen.after).toMatchObject({ filed: null, listedParked: 1, liveRows: 1 });
    expect(seen.after.tables).toEqual(["outbox", `outbox_g${generation + 1}`]);
  });

  it("a filed done row still names the messages its checkpoints name (read where the row is kept)", async () => {
    const retention = recordSettings(env).receiptRetentionMs;
    const app = new App().event("app_mention", async ({ step, say }) => {
      await step("hello", () => say("hello there"));
    });
    const seen = await runInDurableObject(freshShard("T0FILEDMSG"), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, name: "T0FILEDMSG/0" });
      await shard.recording.ingest(mentionIn("T0FILEDMSG", "C0FILEDMSG", "1700000000.000300", "EvFiledMsg"));
      await vi.waitFor(() => expect(shard.recording.eventStory("EvFiledMsg")?.status).toBe("done"));
      const live = shard.recording.eventStory("EvFiledMsg")?.effects[0]?.messages;
      vi.spyOn(Date, "now").mockReturnValue((Math.floor(Date.now() / retention) + 1) * retention + 60_000);
      shard.recording.prune(Date.now());
      shard.recording.prune(Date.now());
      const filed = shard.recording.eventStory("EvFiledMsg")?.effects[0];
      return { live, filed, liveRows: state.storage.sql.exec("SELECT 1 FROM outbox").toArray().length };
    });
    const [posted] = slack().callsTo("chat.postMessage");
    const hello = { kind: "post", name: "hello", channel: "C0FILEDMSG", ts: expect.any(String) };
    expect(seen.live).toEqual([hello]);
    // Filed: not in the live table any more, still done, still naming its post.
    expect(seen.liveRows).toBe(0);
    expect(seen.filed).toMatchObject({ status: "done", messages: [hello] });
    expect(posted).toBeDefined();
  });
});

describe("a completion's kept step results", () => {
  it("are left out, not the completion, when they would take the done row's checkpoints past 1 MB", async () => {
    const outcome = await runInDurableObject(freshShard("T0BIGSTEPS"), async (_, state) => {
      const outbox = outboxOf(state);
      const lease = { token: "tok-big", expiresAt: Date.now() + LEASE_MS };
      const [row] = recordPlanned(outbox, testApp, mentionIn("T0BIGSTEPS", "C0BIG", "1700000000.000400", "EvBigSteps"), lease);
      const key = row!.idempotency_key;
      // An earlier step's 1.2 MB result is on the row already; the attempt kept a post's answer for its settle.
      const big = JSON.stringify("x".repeat(1_200_000));
      state.storage.sql.exec("UPDATE outbox SET steps = json_object('earlier', json(?)) WHERE idempotency_key = ?", big, key);
      const kept = new Map([["placeholder", JSON.stringify({ channel: "C0BIG", ts: "1700000000.000500" })]]);
      const completed = outbox.complete(key, lease.token, null, Date.now(), kept);
      const [done] = state.storage.sql
        .exec<{ done: number; named: string | null; earlier: number }>(
          "SELECT done_at IS NOT NULL AS done, steps ->> '$.placeholder.ts' AS named, length(steps ->> '$.earlier') AS earlier FROM outbox WHERE idempotency_key = ?",
          key,
        )
        .toArray();
      // A small one on another row is written.
      const [small] = recordPlanned(outbox, testApp, mentionIn("T0BIGSTEPS", "C0BIG", "1700000000.000600", "EvSmallSteps"), {
        ...lease,
        token: "tok-small",
      });
      outbox.complete(small!.idempotency_key, "tok-small", null, Date.now(), kept);
      const [written] = state.storage.sql
        .exec<{ named: string | null }>(
          "SELECT steps ->> '$.placeholder.ts' AS named FROM outbox WHERE idempotency_key = ?",
          small!.idempotency_key,
        )
        .toArray();
      return { completed, done, written };
    });
    expect(outcome.completed).toBe(true);
    expect(outcome.done).toEqual({ done: 1, named: null, earlier: 1_200_000 });
    expect(outcome.written).toEqual({ named: "1700000000.000500" });
  });
});
