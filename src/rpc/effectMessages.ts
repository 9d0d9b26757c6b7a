/**
 * What an effect's run waits for and the messages it posted, as its story shows them (GET
 * /admin/api/events/{id}; docs/design.md "An event's story"): types only, read from what the run
 * stored anyway — its checkpoints and its waits. Crosses the RPC boundary: only ever gain optional fields.
 */

/** What a suspended run waits for: a person's click (`waitForAction`) or its time (`sleep`). */
export interface WaitingStory {
  kind: "action" | "timer";
  /** The wait's name (`waitForAction(name, …)`), or the timer's (`sleep(name, …)`). */
  name: string;
  /** When it ends: the wait's timeout, or the timer's wake time (the row is due then). */
  deadline: number;
  /** action: the question's channel. */
  channel?: string;
  /** action: the question's message (null until it was posted). */
  ts?: string | null;
  /** action: who may answer it (user ids; `from`), null for anyone in the channel. */
  from?: string[] | null;
  /** action: when the wait was opened (a timer's start is not stored). */
  since?: number;
}

/** A message the run posted or streamed, as its stored state names it. */
export interface MessageStory {
  /** `stream`: a streamed reply's message; `question`: a wait's question; `post`: a step's result naming a message. */
  kind: "stream" | "question" | "post";
  /** What names it in the run: the stream's checkpoint (`stream #0`), the wait's name, the step's name. */
  name: string;
  /** Null only for a stream checkpointed before streams kept their channel, in a delivery with none. */
  channel: string | null;
  ts: string;
  /**
   * stream: `open` (still streaming, or posted and written into), `stopped` (closed, the last of its
   * reply), `sealed` (closed, not the last: its text left the checkpoint).
   */
  state?: "open" | "stopped" | "sealed";
  /** stream: posted with chat.postMessage (stream starts exhausted), updated in place. */
  posted?: boolean;
  /** stream: found in the thread by a retry's recovery. */
  found?: boolean;
}
