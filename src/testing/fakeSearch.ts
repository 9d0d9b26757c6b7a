/**
 * Slack's Real-time Search API as the fake answers it, from the messages it holds (the app's
 * posts and those `postAs` made): `assistant.search.context` finds the messages whose text
 * contains the query (case aside), as `results.messages` in the shape Slack documents
 * (https://docs.slack.dev/apis/web-api/real-time-search-api/, its sample answers; @slack/web-api's
 * AssistantSearchContextResponse); `assistant.search.info` answers `is_ai_search_enabled: false`.
 * A missing query is refused `missing_query`, as Slack's method page lists it. Only messages are
 * searched (other `content_types` come back empty), bots' messages only with `include_bots`, at
 * most `limit` (Slack's default and most: 20) a page, `cursor` being the fake's own offset.
 * An expired token is the test's to script: `fail({ method: "assistant.search.context" }, { error: "invalid_action_token" })`.
 */
import type { FakeMessage } from "./fakeSlackAnswers";

const PAGE_MOST = 20;

/** The fake's answer to a Real-time Search call, or undefined when `method` is none; `held` (every message the fake holds) is read only for a search: a copy per call made the fake quadratic under load. */
export function searchAnswer(
  method: string,
  body: Record<string, unknown>,
  held: () => ReadonlyArray<FakeMessage & { channel: string }>,
  origin: string,
): Record<string, unknown> | undefined {
  if (method === "assistant.search.info") return { ok: true, is_ai_search_enabled: false };
  if (method !== "assistant.search.context") return undefined;
  const query = typeof body.query === "string" ? body.query.trim().toLowerCase() : "";
  if (query === "") return { ok: false, error: "missing_query" };
  const contentTypes = String(body.content_types ?? "messages").split(",");
  if (!contentTypes.includes("messages")) return { ok: true, results: { messages: [] } };
  const after = Number(body.after ?? Number.NEGATIVE_INFINITY);
  const before = Number(body.before ?? Number.POSITIVE_INFINITY);
  const found = held().filter(
    (m) =>
      m.text.toLowerCase().includes(query) &&
      (m.bot_id === undefined || String(body.include_bots) === "true") &&
      Number(m.ts) > after &&
      Number(m.ts) < before,
  );
  const from = Number(body.cursor ?? 0) || 0;
  const limit = Math.min(Number(body.limit ?? PAGE_MOST) || PAGE_MOST, PAGE_MOST);
  const page = found.slice(from, from + limit).map((m) => ({
    author_user_id: m.user,
    channel_id: m.channel,
    message_ts: m.ts,
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    content: m.text,
    is_author_bot: m.bot_id !== undefined,
    permalink: `${origin}/archives/${m.channel}/p${m.ts.replace(".", "")}`,
  }));
  const next = from + limit < found.length ? String(from + limit) : "";
  return { ok: true, results: { messages: page }, response_metadata: { next_cursor: next } };
}
