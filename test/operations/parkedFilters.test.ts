import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { walkParked } from "../../src/admin/parkedWalk";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { outboxRows, seedEffects } from "../support/outboxRows";
import { outboxOf } from "../support/shardIn";
import { TEST_BINDINGS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

async function adminPost(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await exports.default.fetch(
    new Request(`https://coordinator.test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_BINDINGS.ADMIN_TOKEN}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
  return { status: response.status, json: response.ok ? ((await response.json()) as Record<string, unknown>) : {} };
}

type Clock = ReturnType<typeof controlClock>;

const BODIES: Record<string, Record<string, unknown>> = {
  "chat.postMessage": { channel: "C1", text: "hello" },
  "reactions.add": { channel: "C1", timestamp: "1700000000.000100", name: "eyes" },
};

/** A `slack.api` row of `method` that Slack refused with `error`: parked by its first attempt, at the clock's time. */
async function parkedCall(clock: Clock, team: string, name: string, method: string, error: string): Promise<string> {
  const stub = shardStub(team);
  clock.advance(60_000);
  slack().fail({ method }, { error }, 1);
  const [key] = await seedEffects(
    stub,
    team,
    [{ name, effect: { type: "slack.api", method, body: BODIES[method]! } }],
    `Ev-${name}`,
  );
  await runDurableObjectAlarm(stub);
  expect((await outboxRows(stub)).find((row) => row.idempotency_key === key)).toMatchObject({
    status: "parked",
    last_error: `${method}: 200 ${error}`,
  });
  return key!;
}

/**
 * Two workspaces, two methods, two errors, parked a minute apart, and one stopped run (a row that
 * matches every filter below but is not a dead letter).
 */
async function deadLetters(clock: Clock) {
  const [a, b] = [newWorkspace(), newWorkspace()];
  const start = clock.now();
  const keys = {
    aPostGone: await parkedCall(clock, a, "a-post-gone", "chat.postMessage", "channel_not_found"),
    aPostArchived: await parkedCall(clock, a, "a-post-archived", "chat.postMessage", "is_archived"),
    aReactGone: await parkedCall(clock, a, "a-react-gone", "reactions.add", "channel_not_found"),
    bPostGone: await parkedCall(clock, b, "b-post-gone", "chat.postMessage", "channel_not_found"),
    bReactArchived: await parkedCall(clock, b, "b-react-archived", "reactions.add", "is_archived"),
    aStopped: await parkedCall(clock, a, "a-stopped", "chat.postMessage", "channel_not_found"),
  };
  // A run its user stopped is stored parked with stopped_at (src/recording/rowStatus.ts).
  await runInDurableObject(shardStub(a), (_, state) => {
    state.storage.sql.exec("UPDATE outbox SET stopped_at = parked_at WHERE idempotency_key = ?", keys.aStopped);
  });
  return { a, b, keys, start };
}

const statuses = async (team: string) =>
  Object.fromEntries((await outboxRows(shardStub(team))).map((row) => [row.idempotency_key, row.status]));

describe("narrow replays and discards of the dead-letter queue (a filter, counted first)", () => {
  it("a filtered dry run counts the matching dead letters and changes nothing", async () => {
    const clock = controlClock();
    const { a, b, start } = await deadLetters(clock);
    const before = [await outboxRows(shardStub(a)), await outboxRows(shardStub(b))];
    const calls = slack().calls.length;
    const count = async (filter: Record<string, unknown>) =>
      (await adminPost("/admin/api/parked/replay", { ...filter, dryRun: true })).json;

    expect(await count({ workspace: a })).toEqual({ matched: 3, complete: true, unreachable: [] });
    expect((await count({ workspace: a, method: "chat.postMessage" })).matched).toBe(2);
    expect((await count({ workspace: a, error: "channel_not_found" })).matched).toBe(2);
    expect((await count({ workspace: b, effect: "slack.api" })).matched).toBe(2);
    expect((await count({ workspace: b, effect: "run" })).matched).toBe(0);
    expect((await count({ since: start, error: "is_archived" })).matched).toBe(2);
    // The stored error's start matches too; a word inside it does not.
    expect((await count({ workspace: a, error: "reactions.add: 200" })).matched).toBe(1);
    expect((await count({ workspace: a, error: "not_found" })).matched).toBe(0);
    // since and until read parked_at: the second row of `a` alone.
    const aRows = await outboxRows(shardStub(a));
    const parkedAt = await runInDurableObject(shardStub(a), (_, state) =>
      state.storage.sql.exec<{ parked_at: number }>("SELECT parked_at FROM outbox ORDER BY parked_at").toArray(),
    );
    expect(aRows).toHaveLength(4);
    const [, second, third] = parkedAt.map((row) => row.parked_at);
    expect((await count({ workspace: a, since: second, until: third })).matched).toBe(1);
    expect((await count({ workspace: a, since: new Date(second!).toISOString(), until: third })).matched).toBe(1);
    expect((await adminPost("/admin/api/parked/discard", { shard: `${a}/0`, dryRun: true })).json.matched).toBe(3);

    expect([await outboxRows(shardStub(a)), await outboxRows(shardStub(b))]).toEqual(before);
    expect(slack().calls.length).toBe(calls);
  });

  it("a filtered replay delivers only the matching rows; the others stay parked, the stopped run stopped", async () => {
    const clock = controlClock();
    const { a, b, keys } = await deadLetters(clock);
    const answer = await adminPost("/admin/api/parked/replay", {
      workspace: a,
      method: "chat.postMessage",
      error: "channel_not_found",
    });
    clock.advance(60_000);
    expect(answer).toEqual({ status: 200, json: { replayed: 1, complete: true, unreachable: [] } });
    await runDurableObjectAlarm(shardStub(a));
    const delivered = slack()
      .callsTo("chat.postMessage")
      .filter((call) => call.outcome === "ok");
    expect(delivered).toHaveLength(1);
    expect(await statuses(a)).toEqual({
      [keys.aPostArchived]: "parked",
      [keys.aReactGone]: "parked",
      [keys.aStopped]: "stopped",
    });
    expect(await statuses(b)).toEqual({ [keys.bPostGone]: "parked", [keys.bReactArchived]: "parked" });
  });

  it("a filtered discard deletes only the matching rows", async () => {
    const clock = controlClock();
    // A day past the rows earlier tests of this file parked (storage is per file): `since` leaves them out.
    clock.advance(86_400_000);
    const { a, b, keys, start } = await deadLetters(clock);
    const answer = await adminPost("/admin/api/parked/discard", { since: start, error: "is_archived" });
    expect(answer).toEqual({ status: 200, json: { discarded: 2, complete: true, unreachable: [] } });
    expect(await statuses(a)).toEqual({
      [keys.aPostGone]: "parked",
      [keys.aReactGone]: "parked",
      [keys.aStopped]: "stopped",
    });
    expect(await statuses(b)).toEqual({ [keys.bPostGone]: "parked" });
    expect(slack().calls.filter((call) => call.outcome === "ok")).toEqual([]);
  });

  it("an unfiltered call acts as it always did, and answers as it always did", async () => {
    const clock = controlClock();
    const { a, keys } = await deadLetters(clock);
    const answer = await adminPost("/admin/api/parked/discard", { shard: `${a}/0` });
    expect(answer).toEqual({ status: 200, json: { discarded: 3, unreachable: [] } });
    expect(await statuses(a)).toEqual({ [keys.aStopped]: "stopped" });
  });

  it("refuses a body that says nothing clear, changing nothing", async () => {
    const clock = controlClock();
    const { a } = await deadLetters(clock);
    const before = await outboxRows(shardStub(a));
    for (const body of [
      { dryRun: true },
      { dryRun: "yes", workspace: a },
      { all: true, workspace: a },
      { keys: ["x"], error: "is_archived" },
      { keys: ["x"], dryRun: true },
      { workspace: "" },
      { method: 5 },
      { since: "yesterday" },
      { since: 2000, until: 1000 },
      { workspace: a, errors: "is_archived" },
    ])
      expect((await adminPost("/admin/api/parked/discard", body)).status, JSON.stringify(body)).toBe(400);
    expect(await outboxRows(shardStub(a))).toEqual(before);
  });

  it("reads the parked index in bounded batches: past 10,000 rows a request says so, and resumes", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    // 10,050 dead letters a millisecond apart, written as stored (no attempt needed to count them).
    await runInDurableObject(stub, (_, state) => {
      outboxOf(state);
      state.storage.sql.exec(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10050)
          INSERT INTO outbox (idempotency_key, workspace, effect, payload, status, next_attempt_at, created_at, parked_at, last_error)
          SELECT printf('Ev-%05d:reply', i), ?1, 'slack.api', '{"type":"slack.api","method":"chat.update","body":{}}', 'parked', 0, 1000, 1000 + i,
            'chat.update: 429 ratelimited' FROM n`,
        team,
      );
    });
    // A new instance opens the schema written under the old one's feet.
    await evictDurableObject(stub);
    const first = (await adminPost("/admin/api/parked/discard", { shard: `${team}/0`, method: "chat.update", dryRun: true }))
      .json;
    expect(first).toEqual({ matched: 10_000, complete: false, resumeSince: 11_000, unreachable: [] });
    const rest = (
      await adminPost("/admin/api/parked/discard", { shard: `${team}/0`, since: 11_000, error: "ratelimited", dryRun: true })
    ).json;
    expect(rest).toEqual({ matched: 51, complete: true, unreachable: [] });
    expect(await outboxRows(stub)).toHaveLength(10_050);

    // One range of outbox_parked, in its own order: no scan of the table, no sort.
    const plan = await runInDurableObject(stub, (_, state) => {
      const exec = vi.spyOn(state.storage.sql, "exec");
      outboxOf(state).parked.page(5, 500, { parkedAt: 7, key: "Ev-00007:reply" }, 10);
      const [query, ...bindings] = exec.mock.calls.at(-1)!;
      exec.mockRestore();
      return state.storage.sql
        .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...bindings)
        .toArray()
        .map((row) => row.detail)
        .join("; ");
    });
    expect(plan).toBe("SEARCH outbox USING INDEX outbox_parked ((parked_at,idempotency_key)>(?,?) AND parked_at<?)");
  });

  it("a shard of an earlier version (no batch RPC) is named unreachable, never sent an unfiltered replay", async () => {
    const earlier = { replayParked: vi.fn(() => 7), discardParked: vi.fn(() => 7) };
    const namespace = { idFromName: (name: string) => ({ name }), get: () => earlier };
    const env = { SHARD: namespace } as unknown as CoordinatorEnv;
    const walk = await walkParked(env, ["T-EARLIER/0"], { error: "ratelimited" }, "replay");
    expect(walk).toEqual({ count: 0, complete: true, unreachable: ["T-EARLIER/0"] });
    expect(earlier.replayParked).not.toHaveBeenCalled();
  });
});
