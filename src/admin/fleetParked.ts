import { toBase64 } from "../platform/base64";
import { Rejection } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import type { ParkedCursor, ParkedRow, ShardOperationsApi } from "../rpc/shard";
import { shardOperationsStub, watchStub } from "../rpc/shardStub";
import { WATCH } from "../rpc/watch";
import { onShards } from "./onShards";

/** Every shard that may hold parked effects: the registry's (all it ever saw) and the watch (alerts). */
async function everyShard(env: CoordinatorEnv): Promise<string[]> {
  const registered = await watchStub(env.SHARD).shards(0);
  return [...registered.map((entry) => entry.shard), WATCH];
}

const encodeCursor = (cursor: ParkedCursor) =>
  toBase64(new TextEncoder().encode(JSON.stringify(cursor)))
    .replaceAll("+", "-")
    .replaceAll("/", "_");

function decodeCursor(raw: string | null): ParkedCursor | null {
  if (!raw) return null;
  try {
    const cursor = JSON.parse(atob(raw.replaceAll("-", "+").replaceAll("_", "/"))) as ParkedCursor;
    if (typeof cursor.parkedAt === "number" && typeof cursor.key === "string" && typeof cursor.shard === "string") return cursor;
  } catch {}
  throw new Rejection(400, "cursor is not one this API gave");
}

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

/**
 * `{ "shard"?, "keys"?, "all"? }`: which parked effects an operation is for — a shard's, some keys
 * (on one shard or any), or, only with `"all": true`, every one in the fleet. Anything else is 400:
 * a typo must never widen a discard to everything.
 */
async function selection(request: Request): Promise<{ shard?: string; keys: string[] | null }> {
  const usage = '{ "shard"?: string, "keys"?: string[] }, or { "all": true }';
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new Rejection(400, `body must be JSON: ${usage}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Rejection(400, `body must be ${usage}`);
  const unknown = Object.keys(body).filter((name) => !["shard", "keys", "all"].includes(name));
  if (unknown.length > 0) throw new Rejection(400, `unknown field ${JSON.stringify(unknown[0])}; body must be ${usage}`);
  const { shard, keys, all } = body as { shard?: unknown; keys?: unknown; all?: unknown };
  if (shard !== undefined && (typeof shard !== "string" || shard === ""))
    throw new Rejection(400, '"shard" must be a shard name, e.g. "T0001/0" or "watch"');
  if (keys !== undefined && (!Array.isArray(keys) || keys.length > 1000 || !keys.every((key) => typeof key === "string")))
    throw new Rejection(400, '"keys" must be an array of at most 1000 outbox keys');
  if (all !== undefined && all !== true) throw new Rejection(400, '"all" must be true');
  if (all === true && (shard !== undefined || keys !== undefined))
    throw new Rejection(400, '"all" cannot be combined with "shard" or "keys"');
  if (all !== true && shard === undefined && keys === undefined) throw new Rejection(400, `say which: ${usage}`);
  return { shard: shard as string | undefined, keys: (keys as string[] | undefined) ?? null };
}

/** Runs a replay or discard on the shards the request's selection names; how many rows it touched. */
async function onSelection(
  request: Request,
  env: CoordinatorEnv,
  act: (
    stub: DurableObjectStub<ShardOperationsApi & Rpc.DurableObjectBranded>,
    keys: string[] | null,
  ) => number | Promise<number>,
): Promise<{ count: number; unreachable: string[] }> {
  const { shard, keys } = await selection(request);
  const shards = shard ? [shard] : await everyShard(env);
  const { results, unreachable } = await onShards(shards, async (name) => act(shardOperationsStub(env.SHARD, name), keys));
  return { count: results.reduce((sum, [, n]) => sum + n, 0), unreachable };
}

/**
 * The dead-letter queue across the fleet (docs/guides/operations.md "Operations API"): listed newest first with
 * cursor paging, replayed or discarded by shard, by keys, or all in one request.
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
      cursor: more && last ? encodeCursor({ parkedAt: last.parkedAt, key: last.key, shard: last.shard }) : null,
      unreachable,
    });
  },

  async replay(request: Request, env: CoordinatorEnv): Promise<Response> {
    const { count, unreachable } = await onSelection(request, env, (stub, keys) => stub.replayParked(keys));
    return Response.json({ replayed: count, unreachable });
  },

  async discard(request: Request, env: CoordinatorEnv): Promise<Response> {
    const { count, unreachable } = await onSelection(request, env, (stub, keys) => stub.discardParked(keys));
    return Response.json({ discarded: count, unreachable });
  },
};
