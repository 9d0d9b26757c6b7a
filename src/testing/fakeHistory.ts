/**
 * conversations.history and conversations.replies as Slack pages them: messages after `oldest`
 * (and up to `latest`), `limit` a page (capped where Slack caps it: 15 for apps outside the
 * Marketplace), `has_more` with a `response_metadata.next_cursor` for the next page. A message's
 * `metadata` is shown only when the read asks for it with `include_all_metadata`. History reads
 * newest first; a thread reads its parent first, then its replies oldest first.
 */

export interface ReadMessage {
  ts: string;
  metadata?: unknown;
}

/** Slack's page sizes when a read names none. */
const DEFAULT_LIMIT = { history: 100, replies: 1000 } as const;

export function readPage<M extends ReadMessage>(
  kind: "history" | "replies",
  messages: M[],
  body: Record<string, unknown>,
  pageLimit: number,
): Record<string, unknown> {
  const oldest = numberOf(body.oldest, 0);
  const latest = numberOf(body.latest, Number.POSITIVE_INFINITY);
  const inRange = (m: M) => Number(m.ts) > oldest && Number(m.ts) <= latest;
  const ordered =
    kind === "history" ? messages.filter(inRange).reverse() : messages.filter((m) => m.ts === body.ts || inRange(m));
  const limit = Math.min(numberOf(body.limit, DEFAULT_LIMIT[kind]), pageLimit);
  const from = typeof body.cursor === "string" && body.cursor !== "" ? Number(body.cursor.replace(/^page:/, "")) : 0;
  const page = ordered.slice(from, from + limit).map((m) => shown(m, body.include_all_metadata));
  const more = from + limit < ordered.length;
  return {
    ok: true,
    messages: page,
    has_more: more,
    ...(more ? { response_metadata: { next_cursor: `page:${from + limit}` } } : {}),
  };
}

function shown<M extends ReadMessage>(message: M, withMetadata: unknown): M {
  if (withMetadata === true || withMetadata === "true") return { ...message };
  const { metadata: _hidden, ...rest } = message;
  return rest as M;
}

function numberOf(value: unknown, otherwise: number): number {
  const n = typeof value === "string" || typeof value === "number" ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : otherwise;
}
