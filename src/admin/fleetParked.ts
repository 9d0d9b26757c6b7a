import { Rejection } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import type { ParkedCursor, ParkedRow, ShardOperationsApi } from "../rpc/shard";
import { shardOperationsStub, watchStub } from "../rpc/shardStub";
import { WATCH } from "../rpc/watch";
import { onShards } from "./onShards";
import { cursorFrom, cursorText } from "./pageCursors";
import { type ParkedSelection, parkedSelection } from "./parkedSelection";
import { walkParked } from "./parkedWalk";

/** Every shard that may hold parked effects: the registry's (all it ever saw) and the watch (alerts). */
async function everyShard(env: CoordinatorEnv): Promise<string[]> {
  const registered = await watchStub(env.SHARD).shards(0);
  return [...registered.map((entry) => entry.shard), WATCH];
}

const decodeCursor = (raw: string | null) =>
  cursorFrom<ParkedCursor>(
    raw,
    (c) => typeof c.parkedAt === "number" && typeof c.key === "string" && typeof c.shard === "string",
  );

/** A parked effect as the fleet-wide list shows it. */
export interface FleetParkedRow {
  shard: string;
  key: string;
  workspace: string;
  effect: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  parkedAt: number;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The fleet list's order, newest first: parked time, then key, then shard, all descending. */
function newestFirst(
  a: Pick<FleetParkedRow, "parkedAt" | "key" | "shard">,
  b: Pick<FleetParkedRow, "parkedAt" | "key" | "shard">,
) {
  return b.parkedAt - a.parkedAt || compare(b.key, a.key) || compare(b.shard, a.shard);
}

const toFleetRow = (shard: string, row: ParkedRow): FleetParkedRow => ({
  shard,
  key: row.idempotency_key,
  workspace: row.workspace,
  effect: row.effect,
  attempts: row.attempts,
  lastError: row.last_error,
  createdAt: row.created_at,
  parkedAt: row.parked_at,
});

/** The shards a selection names: its shard, else every shard — only the filter's workspace's when it names one. */
async function shardsOf({ shard, filter }: ParkedSelection, env: CoordinatorEnv): Promise<string[]> {
  if (shard) return [shard];
  const shards = await everyShard(env);
  // A workspace's shards are named "{workspace}/{bucket}" (rpc/shardFor.ts): the others hold none of its rows.
  return filter?.workspace === undefined ? shards : shards.filter((name) => name.startsWith(`${filter.workspace}/`));
}

/**
 * A replay or discard as its body selects: a dry run or a filter walks the shards in bounded
 * batches (parkedWalk.ts); shard, keys or all without a filter act as they always did, in one call per shard.
 */
async function onSelection(
  request: Request,
  env: CoordinatorEnv,
  action: "replay" | "discard",
  act: (
    stub: DurableObjectStub<ShardOperationsApi & Rpc.DurableObjectBranded>,
    keys: string[] | null,
  ) => number | Promise<number>,
): Promise<Record<string, unknown>> {
  const selection = await parkedSelection(request);
  const shards = await shardsOf(selection, env);
  const done = action === "replay" ? "replayed" : "discarded";
  if (selection.filter || selection.dryRun) {
    const { count, ...walk } = await walkParked(env, shards, selection.filter ?? {}, selection.dryRun ? "count" : action);
    return { [selection.dryRun ? "matched" : done]: count, ...walk };
  }
  const { results, unreachable } = await onShards(shards, async (name) =>
    act(shardOperationsStub(env.SHARD, name), selection.keys),
  );
  return { [done]: results.reduce((sum, [, n]) => sum + n, 0), unreachable };
}

/**
 * The dead-letter queue across the fleet (docs/guides/operations.md "Operations API"): listed newest first with
 * cursor paging, replayed or discarded by shard, by keys, all in one request, or by a filter (counted first with dryRun).
 */
export const fleetParked = {
  async list(request: Request, env: CoordinatorEnv): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const limit = Number(params.get("limit") ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new Rejection(400, "limit must be an integer from 1 to 500");
    const before = decodeCursor(params.get("cursor"));
    const { results, unreachable } = await onShards(await everyShard(env), (shard) =>
      Promise.resolve(shardOperationsStub(env.SHARD, shard).listParkedBefore(before, limit)),
    );
    // Shards answer rows at or before the cursor's (time, key); the shard breaks the tie.
    const rows = results
      .flatMap(([shard, parked]) => parked.map((row) => toFleetRow(shard, row)))
      .filter((row) => before === null || newestFirst(row, { ...before, shard: before.shard ?? "" }) > 0)
      .sort(newestFirst);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const more = rows.length > limit || results.some(([, parked]) => parked.length === limit);
    return Response.json({
      parked: page,
      cursor: more && last ? cursorText({ parkedAt: last.parkedAt, key: last.key, shard: last.shard }) : null,
      unreachable,
    });
  },

  async replay(request: Request, env: CoordinatorEnv): Promise<Response> {
    return Response.json(await onSelection(request, env, "replay", (stub, keys) => stub.replayParked(keys)));
  },

  async discard(request: Request, env: CoordinatorEnv): Promise<Response> {
    return Response.json(await onSelection(request, env, "discard", (stub, keys) => stub.discardParked(keys)));
  },
};
