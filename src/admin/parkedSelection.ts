import { Rejection } from "../platform/errors";
import type { ParkedFilter } from "../rpc/parkedFilter";

/** Which parked effects a replay or discard is for, as its body says (docs/guides/operations.md "Operations API"). */
export interface ParkedSelection {
  /** One shard, or (absent) every shard the filter's workspace allows. */
  shard?: string;
  /** Exact keys, or null. */
  keys: string[] | null;
  /** Absent: no filter field was given, the operation is today's unfiltered one. */
  filter?: ParkedFilter;
  /** Count only (`{"matched": n}`), change nothing. */
  dryRun: boolean;
}

const USAGE =
  '{ "shard"?: string, "keys"?: string[] }, { "all": true }, or a filter { "workspace"?, "effect"?, "method"?, "error"?, "since"?, "until"? }; "dryRun"?: true';
const TEXT_FIELDS = ["workspace", "effect", "method", "error"] as const;
const FILTER_FIELDS = [...TEXT_FIELDS, "since", "until"];
const FIELDS = ["shard", "keys", "all", "dryRun", ...FILTER_FIELDS];

/** A time as the body gives it: ms since the epoch, or an ISO 8601 date-time (`2026-12-06T10:00:00Z`). */
function instant(name: string, value: unknown): number {
  const ms = typeof value === "string" ? Date.parse(value) : value;
  if (typeof ms === "number" && Number.isFinite(ms) && ms >= 0) return ms;
  throw new Rejection(400, `"${name}" must be ms since the epoch or an ISO 8601 date-time`);
}

/** The filter fields of a body, checked; undefined when it has none. */
function filterOf(body: Record<string, unknown>): ParkedFilter | undefined {
  if (!FILTER_FIELDS.some((name) => body[name] !== undefined)) return undefined;
  const filter: ParkedFilter = {};
  for (const name of TEXT_FIELDS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "" || value.length > 200)
      throw new Rejection(400, `"${name}" must be a non-empty string`);
    filter[name] = value;
  }
  if (body.since !== undefined) filter.since = instant("since", body.since);
  if (body.until !== undefined) filter.until = instant("until", body.until);
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until)
    throw new Rejection(400, '"since" must be before "until"');
  return filter;
}

/**
 * Reads a replay's or discard's body. Anything unclear is 400 — an unknown field, `{}`, a bare
 * `dryRun`, `all` with anything but `dryRun`, `keys` with a filter: a typo must never widen a discard.
 */
export async function parkedSelection(request: Request): Promise<ParkedSelection> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new Rejection(400, `body must be JSON: ${USAGE}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Rejection(400, `body must be ${USAGE}`);
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((name) => !FIELDS.includes(name));
  if (unknown.length > 0) throw new Rejection(400, `unknown field ${JSON.stringify(unknown[0])}; body must be ${USAGE}`);
  const { shard, keys, all, dryRun } = fields;
  if (shard !== undefined && (typeof shard !== "string" || shard === ""))
    throw new Rejection(400, '"shard" must be a shard name, e.g. "T0001/0" or "watch"');
  if (keys !== undefined && (!Array.isArray(keys) || keys.length > 1000 || !keys.every((key) => typeof key === "string")))
    throw new Rejection(400, '"keys" must be an array of at most 1000 outbox keys');
  if (all !== undefined && all !== true) throw new Rejection(400, '"all" must be true');
  if (dryRun !== undefined && typeof dryRun !== "boolean") throw new Rejection(400, '"dryRun" must be true or false');
  const filter = filterOf(fields);
  if (all === true && (shard !== undefined || keys !== undefined || filter))
    throw new Rejection(400, '"all" cannot be combined with "shard", "keys" or a filter');
  if (keys !== undefined && (filter || dryRun !== undefined))
    throw new Rejection(400, '"keys" name the effects already: no filter or "dryRun" with them');
  if (all !== true && shard === undefined && keys === undefined && !filter) throw new Rejection(400, `say which: ${USAGE}`);
  return { shard: shard as string | undefined, keys: (keys as string[] | undefined) ?? null, filter, dryRun: dryRun === true };
}
