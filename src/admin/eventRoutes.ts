import type { IRequest } from "itty-router";
import { Rejection } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import type { EffectStatus, EventFilter, EventStory, EventSummary } from "../rpc/eventStories";
import { watchStub, workspaceShardStub } from "../rpc/shardStub";
import { onShards } from "./onShards";
import { cursorFrom, cursorText } from "./pageCursors";

const STATUSES: readonly EffectStatus[] = ["pending", "parked", "stopped", "done", "settled"];

/**
 * The workspace shards that may hold a delivery: the watch's registry (every shard that ever
 * recorded one), or only `workspace`'s. An event_id alone does not name its workspace, so a
 * look-up without one asks them all (onShards: 16 at a time).
 */
async function shardsOf(env: CoordinatorEnv, workspace: string | null): Promise<string[]> {
  const registered = await watchStub(env.SHARD).shards(0);
  return registered.filter((entry) => workspace === null || entry.workspace === workspace).map((entry) => entry.shard);
}

/**
 * The story of delivery `id` and the shard that holds it, asked of the shards that may hold it
 * (`?workspace=` narrows them); 404 when none has it.
 */
export async function findStory(
  request: IRequest,
  env: CoordinatorEnv,
  id: string,
): Promise<{ shard: string; story: EventStory; unreachable: string[] }> {
  const workspace = new URL(request.url).searchParams.get("workspace");
  const { results, unreachable } = await onShards(
    await shardsOf(env, workspace),
    async (shard): Promise<EventStory | null> => workspaceShardStub(env.SHARD, shard).eventStory(id),
  );
  const found = results.find((answer): answer is [string, EventStory] => answer[1] !== null);
  if (!found) {
    const why = unreachable.length > 0 ? ` (${unreachable.length} shards did not answer)` : "";
    throw new Rejection(404, `no delivery ${id} in the receipt window${why}`);
  }
  return { shard: found[0], story: found[1], unreachable };
}

/** A list page's position: the last delivery it gave (received time, id, shard), as base64url JSON. */
type EventCursor = { receivedAt: number; id: string; shard: string };

const cursorOf = (raw: string | null) =>
  cursorFrom<EventCursor>(
    raw,
    (c) => typeof c.receivedAt === "number" && typeof c.id === "string" && typeof c.shard === "string",
  );

/** A time given as ms since the epoch or an ISO 8601 date. */
function timeOf(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === "") return undefined;
  const at = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (Number.isNaN(at)) throw new Rejection(400, `${name} must be ms since the epoch or an ISO 8601 time`);
  return at;
}

type Listed = EventSummary & { shard: string };

/** Newest first: received time, then id, then shard, all descending. */
const newestFirst = (a: Pick<Listed, "receivedAt" | "id" | "shard">, b: Pick<Listed, "receivedAt" | "id" | "shard">) =>
  b.receivedAt - a.receivedAt || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0) || (b.shard > a.shard ? 1 : b.shard < a.shard ? -1 : 0);

/**
 * The look-up API (docs/guides/operations.md "An event's story"): one delivery's story by its
 * `event_id` or `trigger_id`, and the deliveries newest first, filtered and paged, across shards.
 */
export const eventRoutes = {
  async story(request: IRequest, env: CoordinatorEnv, id: string): Promise<Response> {
    const { shard, story, unreachable } = await findStory(request, env, id);
    return Response.json({ shard, ...story, unreachable });
  },

  async list(request: IRequest, env: CoordinatorEnv): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const limit = Number(params.get("limit") ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new Rejection(400, "limit must be an integer from 1 to 500");
    const status = params.get("status") ?? undefined;
    if (status !== undefined && !STATUSES.includes(status as EffectStatus))
      throw new Rejection(400, `status must be one of ${STATUSES.join(", ")}`);
    const cursor = cursorOf(params.get("cursor"));
    const text = (name: string) => params.get(name) || undefined;
    const filter: EventFilter = {
      channel: text("channel"),
      user: text("user"),
      listener: text("listener"),
      status: status as EffectStatus | undefined,
      since: timeOf(params, "since"),
      until: timeOf(params, "until"),
      // A shard answers deliveries at or before the cursor's (time, id); the shard breaks the tie below.
      before: cursor && { receivedAt: cursor.receivedAt, id: `${cursor.id}\u0000` },
      // One more: the cursor's own delivery, which its shard gives again (dropped below).
      limit: limit + 1,
    };
    const { results, unreachable } = await onShards(
      await shardsOf(env, params.get("workspace")),
      async (shard): Promise<EventSummary[]> => workspaceShardStub(env.SHARD, shard).listEvents(filter),
    );
    const events = results
      .flatMap(([shard, listed]) => listed.map((event): Listed => ({ shard, ...event })))
      .filter((event) => cursor === null || newestFirst(event, cursor) > 0)
      .sort(newestFirst);
    const page = events.slice(0, limit);
    const last = page.at(-1);
    // A shard that gave all it was asked may hold more (at worst, one more page comes back empty).
    const more = events.length > limit || results.some(([, listed]) => listed.length > limit);
    return Response.json({
      events: page,
      cursor: more && last ? cursorText({ receivedAt: last.receivedAt, id: last.id, shard: last.shard }) : null,
      unreachable,
    });
  },
};
