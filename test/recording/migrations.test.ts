import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS } from "../../src/platform/sql/migrations";
import { deliver, mentionDelivery, newWorkspace, shardStub, storedFor } from "../support/coordinator";

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
    expect(await storedFor(team)).toEqual({ receipts: 2, outbox: { pending: 2, parked: 0 } });
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
    expect(await stub.stats()).toMatchObject({ receipts: 0, outbox: { pending: 0, parked: 0 } });
    expect(await stub.listParked()).toEqual([]);
    expect(await stub.replay()).toBe(0);
    const tables = await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master").toArray(),
    );
    expect(tables).toEqual([]);
  });
});
