import type { StreamLedger, StreamLimits } from "../../contract";

/**
 * What a streamed reply's checkpoint holds, on its run's outbox row: the messages Slack shows
 * (each one's `ts`; the open and the last one's exact text, the others' length and hash) and the
 * one call whose outcome is not known yet: bounded, whatever the reply's length. Written
 * before each call that changes a message (one row write per flush, not per token), so a
 * retried run knows what Slack shows and what may or may not have reached it.
 */

/** One message of a reply: a reply longer or older than a stream allows is a chain of them in the thread. */
export interface StreamedMessage {
  ts: string;
  /** Its text as Slack shows it: every `markdown_text` that reached it, joined. */
  text: string;
  /** When its stream started (ms since the epoch). */
  openedAt: number;
  /** Still a stream (not stopped, not closed by `chat.update`), or a posted message more text goes into. */
  open: boolean;
  /** Posted (chat.postMessage) when stream starts were exhausted: updated in place, never streaming. */
  posted?: boolean;
  /** Closed and not the last: its text (then "") left the checkpoint; its length and hash stay (app/streams/record/sealing.ts). */
  sealed?: { chars: number; hash: string };
  /** Found in the thread by a retry's recovery: a start whose answer its attempt lost, or got only once fenced out. */
  found?: boolean;
}

/** The call sent last: until a later checkpoint, whether it reached Slack is unknown. */
export interface UnconfirmedCall {
  /** `final`: the handler's stop with blocks; `delete`: a retry's truncation removing a message. */
  op: "start" | "post" | "append" | "stop" | "final" | "delete";
  /** The message it wrote to; none for a start. */
  ts?: string;
  text: string;
  /** When a start was sent (ms since the epoch): its message, if Slack opened it, is no older. */
  at?: number;
  /** How many chunks other than text a start carried: found opened, they show in its message. */
  chunks?: number;
}

export interface StreamRecord {
  /** The channel its messages are in (a record written before it was kept has none). */
  channel?: string;
  messages: StreamedMessage[];
  /** Chunks other than text (task updates, plans) sent so far, in order. */
  chunks: number;
  unconfirmed?: UnconfirmedCall;
  /**
   * The reply is finished (the handler's `stop()` reached Slack, a cap, a stop in Slack): nothing
   * of it is sent again. Stored as `done`, the name checkpoints had before: a Worker of the version
   * before, still serving during a rolling deploy or after a rollback, reads it the same.
   */
  done?: boolean;
}

/** The checkpoint name of a run's n-th stream: a retried run meets it again under its place. */
export const streamCheckpointName = (n: number): string => `stream #${n}`;

/** Whether a checkpoint of a run is a stream's (an event's story reads them). */
export const isStreamCheckpoint = (name: string): boolean => /^stream #\d+$/.test(name);

export const DEFAULT_STREAM_LIMITS: Required<StreamLimits> = {
  maxOpenMs: 240_000,
  maxChars: 10_000,
  slackDropMs: 270_000,
  maxReplyChars: 100_000,
  maxReplyMs: 1_800_000,
};

/** The one reader of a stream's checkpoint: none yet is an empty reply. */
export function streamRecordOf(json: string | undefined): StreamRecord {
  return json === undefined ? { messages: [], chunks: 0 } : (JSON.parse(json) as StreamRecord);
}

/** A ledger in memory, for a run outside a shard (a unit test calling `app.run` itself). */
export function memoryLedger(): StreamLedger {
  const records = new Map<string, string>();
  return {
    read: (name) => records.get(name),
    write: (name, json) => {
      records.set(name, json);
    },
  };
}
