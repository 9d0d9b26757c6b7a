/**
 * A post's id in Slack's message metadata: every `chat.postMessage` the coordinator sends for an
 * outbox row carries it, so a retry can find the message an earlier attempt may have posted
 * (conversations.replies / conversations.history with `include_all_metadata`) instead of posting it
 * again. The id is the row's key, the step the post was made in, and its place among that step's posts.
 */

/** The metadata's `event_type` when the app sent none of its own. */
export const POST_EVENT_TYPE = "durable_coordinator_post";

/** The field of `event_payload` that holds the id: beside the app's own fields when it sent metadata. */
export const POST_ID_FIELD = "durable_coordinator_post_id";

/** The Web API methods whose calls are named and looked for: a post Slack may have made unbeknown to us. */
export const NAMED_POSTS: ReadonlySet<string> = new Set(["chat.postMessage"]);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The app's own metadata, as an object or the JSON string form bodies carry; anything else is none. */
function appMetadataOf(metadata: unknown): { event_type?: unknown; event_payload?: unknown } | undefined {
  if (isObject(metadata)) return metadata;
  if (typeof metadata !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(metadata);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `body` with `id` in its message metadata; the app's own event type and payload kept. */
export function withPostId(body: Json, id: string): Json {
  const own = appMetadataOf(body.metadata);
  const eventType = typeof own?.event_type === "string" && own.event_type !== "" ? own.event_type : POST_EVENT_TYPE;
  const payload = isObject(own?.event_payload) ? own.event_payload : {};
  return { ...body, metadata: { event_type: eventType, event_payload: { ...payload, [POST_ID_FIELD]: id } } };
}

/** The post id a message read back from Slack carries, if it is one of ours. */
export function postIdOf(message: unknown): string | undefined {
  if (!isObject(message)) return undefined;
  const metadata = appMetadataOf(message.metadata);
  const payload = isObject(metadata?.event_payload) ? metadata.event_payload : undefined;
  const id = payload?.[POST_ID_FIELD];
  return typeof id === "string" ? id : undefined;
}
