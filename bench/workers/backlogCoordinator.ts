import * as product from "product:src/index.ts";
import { callRateKey } from "product:src/pacing/tiers.ts";
import { applyMigrations } from "product:src/platform/sql/migrations.ts";
import { MAKE_DUE, SEED_CHANNEL_PREFIX, SEED_CHANNELS, type SeedBatch, seedStatement } from "./backlogSql";

// The coordinator as deployed, with a shard that also answers the bench's own RPCs (`npm run bench
// -- --backlog`): seeding a backlog with SQL inside the object (a million rows in seconds, where
// ingests would take hours), making rows due, and running its alarm in rounds. Bench-only: these
// bypass the outbox's memory, and nothing here is built into src/.
export const { Installations } = product;
const worker = product.default;

export class Shard extends product.Shard {
  /** Writes one batch of seeded rows (backlogSql.ts); returns the rows SQLite wrote, index entries included. */
  benchSeed(batch: Omit<SeedBatch, "rateKeys">): number {
    const rateKeys = Array.from({ length: SEED_CHANNELS }, (_, i) =>
      callRateKey("chat.postMessage", { channel: `${SEED_CHANNEL_PREFIX}${i}` }),
    );
    // A shard nobody wrote to has no schema yet (its first write applies it): the seed is its first write.
    applyMigrations(this.ctx.storage);
    const { query, bindings } = seedStatement({ ...batch, rateKeys });
    return this.ctx.storage.sql.exec(query, ...bindings).rowsWritten;
  }

  /** The first `limit` waiting rows made due now (the recovery's moment); how many were. */
  benchMakeDue(limit: number): number {
    return this.ctx.storage.sql.exec(MAKE_DUE, Date.now(), limit).toArray().length;
  }

  /** The shard's own alarm handler, `rounds` times in a row, each after `dueEach` rows were made due. */
  async benchAlarms(rounds: number, dueEach: number): Promise<number> {
    let due = 0;
    for (let round = 0; round < rounds; round++) {
      if (dueEach > 0) due += this.benchMakeDue(dueEach);
      await this.alarm!();
    }
    return due;
  }

  /** Sets the runtime's alarm for now: the shard's own alarms then sweep what is due. */
  async benchWakeNow(): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now());
  }
}

type BenchEnv = Parameters<typeof worker.fetch>[1];
type BenchShard = DurableObjectStub<Shard>;

/** `POST /bench/backlog/{seed|due|alarms|wake}` with `{ workspace, … }`, under the admin token: one of the RPCs above. */
async function benchRoute(request: Request, env: BenchEnv, op: string): Promise<Response> {
  if (request.headers.get("authorization") !== `Bearer ${env.ADMIN_TOKEN}`) return new Response("unauthorized", { status: 401 });
  const body = (await request.json()) as { workspace: string; [field: string]: unknown };
  const namespace = env.SHARD as unknown as DurableObjectNamespace<Shard>;
  const shard: BenchShard = namespace.get(namespace.idFromName(`${body.workspace}/0`));
  switch (op) {
    case "seed":
      return Response.json({ rowsWritten: await shard.benchSeed(body as unknown as Omit<SeedBatch, "rateKeys">) });
    case "due":
      return Response.json({ due: await shard.benchMakeDue(Number(body.limit)) });
    case "alarms":
      return Response.json({ due: await shard.benchAlarms(Number(body.rounds), Number(body.dueEach)) });
    case "wake":
      await shard.benchWakeNow();
      return Response.json({ ok: true });
    default:
      return new Response("unknown bench operation", { status: 404 });
  }
}

export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/bench/backlog/")) return benchRoute(request, env, pathname.slice("/bench/backlog/".length));
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<BenchEnv>;
