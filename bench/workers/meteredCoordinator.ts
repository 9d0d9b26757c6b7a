import * as product from "product:src/index.ts";
import type { ShardClass } from "product:src/shard/shardClass.ts";
import { meterAlarmsSet, meteredEnv, objectUsage, reached, reachedObjects } from "./objectMeter";
import { statementCosts } from "./statementMeter";

// The coordinator as deployed, plus bench-only routes that report rows written and read per SQL
// statement, and the Durable Object requests, alarms and database sizes a run cost (shards and
// installations run in the Worker's isolate under workerd, so they share these tallies).
type Env = Parameters<typeof product.default.fetch>[1];
const ProductShard = product.Shard as ShardClass;

/** The product's shard, its namespaces' stubs metered and its alarms counted; one bench-only RPC, its database's size. */
export class Shard extends ProductShard {
  constructor(ctx: DurableObjectState, env: Env) {
    meterAlarmsSet(ctx.storage);
    super(ctx, meteredEnv(env));
  }

  override async alarm(): Promise<void> {
    objectUsage.alarms++;
    reached(this.ctx.id);
    await super.alarm?.();
  }

  /** The SQLite database's size in bytes, as Cloudflare bills its storage. */
  benchDatabaseSize(): number {
    return this.ctx.storage.sql.databaseSize;
  }
}
// OAuth mode's store; undefined when PRODUCT_ROOT is a build from before it (then never bound).
export const Installations = (product as Record<string, unknown>).Installations;
const worker = product.default;

/** Each reached object's database size, through raw stubs (these calls are not counted). */
async function databaseBytes(env: Env): Promise<number> {
  const namespace = env.SHARD as unknown as DurableObjectNamespace<Shard>;
  const sizes = await Promise.all(
    [...reachedObjects.keys()].map((hex) =>
      Promise.resolve(namespace.get(namespace.idFromString(hex)).benchDatabaseSize()).catch(() => 0),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/bench/statements") return Response.json(statementCosts());
    if (pathname === "/bench/usage")
      return Response.json({
        objects: { ...objectUsage, reached: Object.fromEntries(reachedObjects), databaseBytes: await databaseBytes(env) },
        statements: statementCosts(),
      });
    return worker.fetch(request, meteredEnv(env), ctx);
  },
} satisfies ExportedHandler<Env>;
