/** Where a run's streams keep their checkpoints, as JSON (on the run's outbox row; their shape is app/streams' own). */
export interface StreamLedger {
  read(name: string): string | undefined;
  /** Fenced by the run's lease, which it extends; throws LeaseLost once another attempt owns the run. */
  write(name: string, json: string): void;
}

/** STREAM_MAX_OPEN_MS and STREAM_MAX_CHARS: a message is continued in a new one before either. */
export interface StreamLimits {
  maxOpenMs: number;
  maxChars: number;
  /** STREAM_SLACK_DROP_MS: a message found not streaming this old was dropped by Slack; younger, stopped in Slack. */
  slackDropMs?: number;
  /** STREAM_MAX_REPLY_CHARS and STREAM_MAX_REPLY_MS: one reply finishes, with a notice, past either. */
  maxReplyChars?: number;
  maxReplyMs?: number;
}

/** What a run's `sayStream()` is handed by the shard: where its checkpoints go, Slack's limits, how it waits. */
export interface StreamTools {
  ledger?: StreamLedger;
  limits?: StreamLimits;
  sleep?: (ms: number) => Promise<void>;
}
