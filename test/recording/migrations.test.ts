import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { INSTALLATION_MIGRATIONS } from "../../src/installations/installationMigrations";
import { applyMigrations, MIGRATIONS } from "../../src/platform/sql/migrations";
import { installationStub } from "../../src/rpc/installationStubs";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub, storedFor } from "../support/coordinator";

type Applied = { id: number; name: string; applied_at: number };

function appliedIn(state: DurableObjectState): Applied[] {
  return state.storage.sql.exec<Applied>("SELECT id, name, applied_at FROM schema_migrations ORDER BY id").toArray();
}

describe("schema migrations", () => {
  it("are applied once, in order, at a shard's first write", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    const applied = await runInDurableObject(stub, (_, state) => ({
      rows: appliedIn(state),
      again: applyMigrations(state.storage),
    }));
    expect(applied.rows.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
    expect(applied.again).toEqual([]);
    // The operations API shows the newest one applied (what to compare with a version before a rollback).
    const newest = MIGRATIONS.at(-1)!;
    expect(await (await adminGet(`/admin/shards/${team}/0`)).json()).toMatchObject({
      migration: { id: newest.id, name: newest.name },
    });
  });

  it("survive eviction: a reconstructed shard keeps its data and does not re-apply", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    const before = await runInDurableObject(stub, (_, state) => appliedIn(state));

    await evictDurableObject(stub);
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);

    const after = await runInDurableObject(stub, (_, state) => appliedIn(state));
    expect(after).toEqual(before);
    expect(await storedFor(team)).toEqual({ receipts: 2, outbox: { pending: 2, parked: 0, stopped: 0 } });
  });

  it("a second migration applies on a shard that already has data, exactly once", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const next = [
      ...MIGRATIONS,
      {
        id: 99,
        name: "0099_outbox_notes",
        sql: "ALTER TABLE outbox ADD COLUMN note TEXT; UPDATE outbox SET note = 'kept';",
      },
    ];

    const result = await runInDurableObject(shardStub(team), (_, state) => {
      const first = applyMigrations(state.storage, next);
      const second = applyMigrations(state.storage, next);
      const notes = state.storage.sql
        .exec<{ note: string }>("SELECT note FROM outbox")
        .toArray()
        .map((r) => r.note);
      return { first, second, notes, names: appliedIn(state).map((m) => m.name) };
    });
    expect(result.first).toEqual([99]);
    expect(result.second).toEqual([]);
    expect(result.notes).toEqual(["kept"]);
    expect(result.names).toEqual([...MIGRATIONS.map((m) => m.name), "0099_outbox_notes"]);
  });

  it("a failing migration rolls back entirely and leaves the shard on its previous version", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    const outcome = await runInDurableObject(stub, (_, state) => {
      const broken = [
        ...MIGRATIONS,
        { id: 98, name: "0098_broken", sql: "CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;" },
      ];
      let error = "";
      try {
        applyMigrations(state.storage, broken);
      } catch (e) {
        error = String(e);
      }
      const tables = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name = 'half_done'")
        .toArray();
      return { error, tables, ids: appliedIn(state).map((m) => m.id) };
    });
    expect(outcome.error).toMatch(/no_such_table/);
    expect(outcome.tables).toEqual([]);
    expect(outcome.ids).toEqual(MIGRATIONS.map((m) => m.id));
  });

  it("a shard that was only read (the operations API) gets no schema and no storage", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    expect(await stub.stats()).toMatchObject({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 }, migration: null });
    expect(await stub.listParked()).toEqual([]);
    expect(await stub.replay()).toBe(0);
    const tables = await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master").toArray(),
    );
    expect(tables).toEqual([]);
  });
});

/** Rows in a shard's receipt tables (one per generation) and its outbox, read as they are. */
function rowsIn(state: DurableObjectState): { receipts: number; outbox: number } {
  const { sql } = state.storage;
  const count = (table: string) => sql.exec<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`).one().n;
  const receiptTables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'receipts%'")
    .toArray()
    .map((t) => t.name);
  return { receipts: receiptTables.reduce((sum, table) => sum + count(table), 0), outbox: count("outbox") };
}

/** What a newer version left behind: a migration this code has never heard of. */
const FROM_A_NEWER_VERSION = { id: 99, name: "0099_from_a_newer_version" };

function recordNewerMigration(state: DurableObjectState): void {
  state.storage.sql.exec(
    "INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)",
    FROM_A_NEWER_VERSION.id,
    FROM_A_NEWER_VERSION.name,
    Date.now(),
  );
}

const logLines = (spy: { mock: { calls: unknown[][] } }, msg: string) =>
  spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>).filter((line) => line.msg === msg);

describe("a schema newer than the code (a rollback past a migration)", () => {
  const newest = MIGRATIONS.at(-1)!;
  const namesBoth = new RegExp(
    `schema is at migration 99 \\(0099_from_a_newer_version\\) but this code knows migrations up to ${newest.id} \\(${newest.name}\\): roll forward`,
  );

  it("the shard refuses every request: Slack gets 503 (retried), nothing is stored, the error names both migrations", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => recordNewerMigration(state));
    const before = await runInDurableObject(stub, (_, state) => rowsIn(state));
    // A rollback is a deploy: every shard instance starts again, under the older code.
    await evictDurableObject(stub);
    const errors = vi.spyOn(console, "error");

    for (let n = 0; n < 2; n++) {
      const { delivery } = await mentionDelivery(team);
      const response = await deliver(delivery);
      expect(response.status).toBe(503);
      expect(response.headers.get("x-slack-no-retry")).toBeNull();
    }
    // Every RPC, not only ingest: old code must not read a schema it does not know either.
    await expect(Promise.resolve(shardStub(team).stats())).rejects.toThrow(namesBoth);
    await expect(Promise.resolve(shardStub(team).metricsSince(0))).rejects.toThrow(namesBoth);

    expect(await runInDurableObject(stub, (_, state) => rowsIn(state))).toEqual(before);
    // The shard says it once per instance, with its name; the edge logs each request it could not record.
    const refused = logLines(errors, "shard refuses every request: its schema is newer than this code");
    expect(refused).toEqual([
      expect.objectContaining({
        shard: `${team}/0`,
        schemaMigration: 99,
        codeMigration: newest.id,
        error: expect.stringMatching(namesBoth),
      }),
    ]);
    const notRecorded = logLines(errors, "event not recorded");
    expect(notRecorded).toHaveLength(2);
    expect(notRecorded[0]).toMatchObject({ shard: `${team}/0`, error: expect.stringMatching(namesBoth) });
  });

  it("its alarm does no work and looks again a minute later, so a fixed version finds it set", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => recordNewerMigration(state));
    await evictDurableObject(stub);
    const outcome = await runInDurableObject(stub, async (instance, state) => {
      const before = rowsIn(state);
      const started = Date.now();
      await instance.alarm?.();
      return { before, after: rowsIn(state), alarm: await state.storage.getAlarm(), started };
    });
    expect(outcome.after).toEqual(outcome.before);
    expect(outcome.alarm).toBeGreaterThanOrEqual(outcome.started + 60_000);
  });

  it("the installation store refuses too: read as empty, an installation would look uninstalled (410, events lost)", async () => {
    const stub = installationStub(env, newWorkspace());
    await runInDurableObject(stub, (_, state) => {
      applyMigrations(state.storage, INSTALLATION_MIGRATIONS);
      recordNewerMigration(state);
    });
    await evictDurableObject(stub);
    const newestKnown = INSTALLATION_MIGRATIONS.at(-1)!;
    await expect(Promise.resolve(stub.status())).rejects.toThrow(
      `schema is at migration 99 (0099_from_a_newer_version) but this code knows migrations up to ${newestKnown.id} (${newestKnown.name})`,
    );
  });
});
