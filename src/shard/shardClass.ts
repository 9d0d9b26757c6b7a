import type { DurableObject } from "cloudflare:workers";
import type { CoordinatorEnv } from "../rpc/env";
import type { ShardApi } from "../rpc/shard";

/** A shard as its callers and wrangler see it: a Durable Object with every role's RPC surface (rpc.ts). */
export type Shard = DurableObject<CoordinatorEnv> & ShardApi;
/** The shard class `createCoordinator` returns, for the Worker to export under the name wrangler.toml binds. */
export type ShardClass = (new (ctx: DurableObjectState, env: CoordinatorEnv) => Shard) & { prototype: Shard };
