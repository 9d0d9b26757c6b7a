import { MalformedPayload } from "../platform/errors";
import { isObject } from "./fields";
import { parseSlackRequest } from "./parseSlackRequest";
import type { Inbound, InboundKind, RawRequest } from "./types";

/**
 * A re-run (POST /admin/api/events/{id}/rerun; docs/design.md "An event's story"): a recorded
 * delivery's listeners run again as a new delivery. Its dedupe key is `{id}:rerun:{key}` — the
 * original's story id and the request's idempotency key — so a double-clicked re-run finds its
 * own receipt (a duplicate), each other re-run is new, and the link both ways is read off the key:
 * no column, no row besides the re-run's own receipt.
 */
const RERUN = ":rerun:";

/** An idempotency key as a re-run's key takes it: no `:`, so the original is found again in the key. */
export const RERUN_KEY = /^[A-Za-z0-9._~-]{1,64}$/;

/** The dedupe key of the re-run of `id` under idempotency key `key` (RERUN_KEY). */
export const rerunKey = (id: string, key: string): string => `${id}${RERUN}${key}`;

/** The story id a re-run's dedupe key re-ran; undefined for a delivery from Slack. */
export function rerunOf(dedupeKey: string): string | undefined {
  const at = dedupeKey.lastIndexOf(RERUN);
  return at > 0 && RERUN_KEY.test(dedupeKey.slice(at + RERUN.length)) ? dedupeKey.slice(0, at) : undefined;
}

/** The range of dedupe keys that holds `id`'s re-runs (and theirs: filter with rerunOf). */
export const rerunRange = (id: string): [string, string] => [`${id}${RERUN}`, `${id}:rerun;`];

/**
 * The request a kept payload was sent as, re-encoded (the receipt keeps the parsed payload, not
 * Slack's bytes): JSON for the Events API, form fields for a slash command, `payload=` for interactivity.
 */
function requestOf(kind: InboundKind, payload: Record<string, unknown>): RawRequest {
  if (kind === "event") return { body: JSON.stringify(payload), contentType: "application/json" };
  const form =
    kind === "command"
      ? new URLSearchParams(Object.entries(payload).map(([name, value]) => [name, String(value)]))
      : new URLSearchParams({ payload: JSON.stringify(payload) });
  return { body: form.toString(), contentType: "application/x-www-form-urlencoded" };
}

/**
 * The new delivery that re-runs a kept payload of `kind`, the original's story `id`, under
 * idempotency key `key`: parsed again as the edge parsed it, then made a delivery of its own —
 * its dedupe key `{id}:rerun:{key}`, and no message fact, so its effects (fact-scoped ones too),
 * their rows, posts' ids, turns and merges are keyed by it, never deduped against the original's.
 * It keeps the conversation (its turns queue in the thread) and the routing time; it carries no
 * Slack retry header and no edge time (no late-event age: the operator asked for it). `raw`: the
 * request re-encoded, for relay mode. Throws MalformedPayload when the payload no longer parses.
 */
export function rerunDelivery(
  kind: InboundKind,
  payload: unknown,
  id: string,
  key: string,
  relayAll: boolean,
): { inbound: Inbound; raw: RawRequest } {
  if (!isObject(payload)) throw new MalformedPayload("the kept payload is not an object");
  const raw = requestOf(kind, payload);
  const parsed = parseSlackRequest(raw.body, { contentType: raw.contentType, retryNum: null, retryReason: null }, relayAll);
  if (parsed.kind !== "inbound") throw new MalformedPayload(`the kept payload parses as ${parsed.kind}, not a delivery`);
  const { factKey: _, retryNum: __, retryReason: ___, receivedAt: ____, ...delivery } = parsed.inbound;
  return { inbound: { ...delivery, dedupeKey: rerunKey(id, key) }, raw };
}
