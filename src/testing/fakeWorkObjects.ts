/**
 * Work Objects as Slack answers them (docs.slack.dev/reference/methods/entity.presentDetails,
 * chat.unfurl's `metadata`: docs.slack.dev/messaging/work-objects), each one taken recorded for a
 * test to read: the flexpanes presented, with their trigger, and the entities unfurled.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** One `entity.presentDetails` Slack took: the trigger it answered and what the flexpane shows. */
export interface PresentedDetails {
  trigger_id: string;
  metadata?: Json;
  user_auth_required?: boolean;
  user_auth_url?: string;
  error?: Json;
}

/** One `chat.unfurl` with Work Object metadata: the message (`channel` + `ts`, or `unfurl_id` + `source`) and its entities. */
export interface UnfurledWorkObjects {
  channel?: string;
  ts?: string;
  unfurl_id?: string;
  source?: string;
  entities: Json[];
}

/** A form's boolean as Slack reads it: `true` or `1`. */
const truthy = (value: unknown) => value === true || value === "true" || value === "1" || value === 1;

const strings = (body: Json, ...keys: string[]) =>
  Object.fromEntries(keys.flatMap((key) => (typeof body[key] === "string" ? [[key, body[key]]] : [])));

export class FakeWorkObjects {
  /** Every flexpane presented, oldest first. */
  readonly presented: PresentedDetails[] = [];
  /** Every Work Object unfurl, oldest first (`chat.unfurl` with `unfurls` alone is not one). */
  readonly unfurled: UnfurledWorkObjects[] = [];

  /** Slack's answer to a Work Objects call, recorded when Slack would take it; undefined for any other call. */
  answer(method: string, body: Json): Json | undefined {
    if (method === "entity.presentDetails") return this.present(body);
    if (method === "chat.unfurl" && body.metadata !== undefined) return this.unfurl(body);
    return undefined;
  }

  /** Slack's errors: `invalid_trigger_id`, `invalid_metadata`, `user_auth_url_missing`. */
  private present(body: Json): Json {
    const { trigger_id, metadata, user_auth_url, error } = body;
    if (typeof trigger_id !== "string" || trigger_id === "") return { ok: false, error: "invalid_trigger_id" };
    if (metadata !== undefined && !isObject(metadata)) return { ok: false, error: "invalid_metadata" };
    const authRequired = truthy(body.user_auth_required);
    if (authRequired && typeof user_auth_url !== "string") return { ok: false, error: "user_auth_url_missing" };
    this.presented.push({
      trigger_id,
      ...(isObject(metadata) ? { metadata } : {}),
      ...(authRequired ? { user_auth_required: true, user_auth_url: String(user_auth_url) } : {}),
      ...(isObject(error) ? { error } : {}),
    });
    return { ok: true };
  }

  /** `metadata` must hold `entities` (Slack: `invalid_metadata_format`). */
  private unfurl(body: Json): Json {
    const entities = isObject(body.metadata) ? body.metadata.entities : undefined;
    if (!Array.isArray(entities) || !entities.every(isObject)) return { ok: false, error: "invalid_metadata_format" };
    this.unfurled.push({ ...strings(body, "channel", "ts", "unfurl_id", "source"), entities });
    return { ok: true };
  }
}
