/**
 * A filter over the dead-letter queue (POST /admin/api/parked/replay and /discard, docs/guides/operations.md
 * "Narrow replays"): types only, a leaf shared by the Worker and the shard. Every field narrows; an
 * absent one does not. A shard answers one bounded batch at a time (`parkedMatching`).
 */
export interface ParkedFilter {
  /** The workspace (team id): the Worker asks only its shards; the shard checks the row's too. */
  workspace?: string;
  /** The effect kind, e.g. `slack.api`, `run`, `relay`. */
  effect?: string;
  /** A `slack.api` row's Slack method, e.g. `chat.update` (other kinds have none, so never match). */
  method?: string;
  /** Slack's error code of the last error (`ratelimited`), or the start of the stored error text. */
  error?: string;
  /** Parked at or after (ms since the epoch). */
  since?: number;
  /** Parked before (ms since the epoch). */
  until?: number;
}

/** What a batch does to the rows that match: counts them (a dry run), replays or discards them. */
export type ParkedAction = "count" | "replay" | "discard";

/** A position in a shard's dead-letter queue, oldest first: the last row a batch read. */
export interface ParkedPosition {
  parkedAt: number;
  key: string;
}

/** One batch of a filtered operation: reads at most `examine` parked rows after `after`, in parked order. */
export interface ParkedBatch {
  filter: ParkedFilter;
  action: ParkedAction;
  after: ParkedPosition | null;
  examine: number;
}

/** A batch's answer: rows matched (and acted on); where the next batch starts, or null once the range is read. */
export interface ParkedBatchResult {
  matched: number;
  after: ParkedPosition | null;
}
