/** A click that answered a durable wait: which button, its value, who clicked, when. */
export interface WaitAnswer {
  actionId: string;
  value?: string;
  user?: string;
  /** When the click was recorded (ms since the epoch). */
  at: number;
}

/** A run's durable wait as the shard keeps it (parts/waits/waitStore.ts). */
export interface WaitRecord {
  waitId: string;
  state: "open" | "answered" | "closed" | "timed_out";
  deadline: number;
  answer?: WaitAnswer;
}

/** Where a run's durable waits are kept (a table of the shard's, by the run's row and the wait's name). */
export interface WaitLedger {
  /**
   * Opens the wait once per run and name (a retried attempt gets the same wait), with the block_id
   * its buttons carry; `answerers` are the user ids whose click may answer it, null for anyone.
   */
  open(name: string, channel: string, deadline: number, answerers: string[] | null): WaitRecord & { blockId: string };
  /** The question's message, once posted. */
  posted(waitId: string, messageTs: string): void;
  /** The run has read its answer. */
  close(waitId: string): void;
  /** Ends an open wait past its deadline; false when a click answered it first. */
  timeOut(waitId: string): boolean;
}
