import { channelOf } from "../inbound/channelOf";
import { isObject } from "../inbound/fields";
import type { Inbound } from "../inbound/types";
import { userOf } from "../inbound/userOf";
import type { MeteredSql } from "../platform/sql/meteredSql";
import { REDACTED_MARK } from "../rpc/eventStories";
import type { PayloadKeeping } from "../settings/edge";

/** The story's columns of a receipt table (receipts.ts). */
export const STORY_COLUMNS = ["channel", "user_id", "thread_ts", "effects", "payload"];

/** Adds the story's columns `table` lacks (a table begun by an earlier version): a schema row each, no receipt row. */
export function addStoryColumns(sql: MeteredSql, table: string): void {
  const has = new Set(sql.all<{ name: string }>("SELECT name FROM pragma_table_info(?)", table).map((column) => column.name));
  for (const column of STORY_COLUMNS.filter((name) => !has.has(name))) sql.all(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
}

/** What a person wrote or chose: removed from a `redacted` payload, whose ids stay. */
const WRITTEN = new Set(["text", "blocks", "attachments", "files", "values", "title", "preview", "previous_message"]);
/** Credentials a payload may carry (the legacy verification token, a custom step's token): never kept. */
const SECRETS = new Set(["token", "bot_access_token"]);

/**
 * The story's head, written by the receipt INSERT a delivery does anyway (receipts.ts): where it
 * happened, who sent it, its listeners' effect names, and its payload as `keeping` says.
 */
export interface ReceiptStory {
  channel: string | null;
  user: string | null;
  thread: string | null;
  /** JSON array of the delivery's outbox keys (`{dedupe or fact key}:{effect name}`), planned at its ingest. */
  effects: string;
  payload: string | null;
}

export function receiptStory(inbound: Inbound, effectKeys: readonly string[], keeping: PayloadKeeping): ReceiptStory {
  return {
    channel: channelOf(inbound) ?? null,
    user: userOf(inbound) ?? null,
    thread: inbound.conversation?.threadTs ?? null,
    effects: JSON.stringify(effectKeys),
    payload: keeping === "none" ? null : keptPayload(inbound.payload, keeping === "redacted"),
  };
}

/**
 * The payload as kept, as JSON: without secrets at any depth, and without what a person wrote when
 * `redact` — left out as it is written, not copied first (the story of every event is written at its
 * ingest). A redacted one says so (REDACTED_MARK), for a re-run to refuse and an operator to see.
 */
function keptPayload(payload: Record<string, unknown>, redact: boolean): string {
  let root = true;
  return JSON.stringify(payload, (name, value: unknown) => {
    if (root) {
      // The first call is the payload itself (its name is "", as a nested field's may be too).
      root = false;
      return redact && isObject(value) ? { ...value, [REDACTED_MARK]: true } : value;
    }
    return SECRETS.has(name) || (redact && WRITTEN.has(name)) ? undefined : value;
  });
}
