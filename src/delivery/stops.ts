import type { Effect } from "../app/contract";
import type { Inbound } from "../inbound/types";
import { userOf } from "../inbound/userOf";
import { BoundedMap } from "../platform/boundedMap";
import { RunStopped, STOPPED_BY_USER } from "../platform/errors";
import { log } from "../platform/log";
import type { Outbox } from "../recording/outbox";
import { streamCloseRows } from "./parkFollowUps";

/** Keys a stop parked while their attempt was already lined up in this isolate (claimed, not begun). */
const STOPPED_KEYS_MAX = 10_000;

/** What one attempt of a row holds while it runs: the signal a stop aborts, and its end. */
export interface AttemptStop {
  signal: AbortSignal;
  end(): void;
}

/** The conversation a row's effect belongs to, when it is a run of a delivery in a thread. */
function conversationOf(effect: Effect): string | undefined {
  return effect.type === "run" ? effect.inbound.conversation?.key : undefined;
}

/** An attempt running now: its row, the user whose delivery it replies to, its abort. */
interface Running {
  key: string;
  user: string | undefined;
  controller: AbortController;
}

/**
 * The stop button (`agent_session_stopped`), durably: the shard that records a conversation's
 * deliveries records its stop too, so the stop meets its runs here. A stop is the clicking user's
 * (the event's `user`): it stops the runs replying to that user's deliveries in that thread, never
 * another user's (inbound/userOf.ts). On the stop's ingest those of its runs that wait are parked
 * ("stopped by user") — the durable record: a parked row is never claimed again, by this isolate
 * or the next — and those in an attempt in this isolate are aborted through their signal; an
 * attempt already lined up (claimed before the stop) finds its key here and never begins. The
 * stop's own Slack calls are planned (app/agent/agentSessions.ts); the messages its runs' checkpoints
 * show streaming are closed by follow-ups (parkFollowUps.ts).
 */
export class Stops {
  /** Attempts running now, by conversation: a stop aborts each of its user's. */
  private readonly running = new Map<string, Set<Running>>();
  private readonly stoppedKeys = new BoundedMap<string, true>(STOPPED_KEYS_MAX);

  constructor(
    private readonly outbox: Outbox,
    private readonly shard: string,
    /** Moves the shard's alarm earlier: the stopped runs' streams are closed at once. */
    private readonly wakeAt: (at: number) => void = () => {},
  ) {}

  /**
   * An attempt of `key` begins: its signal, aborted when its conversation is stopped; RunStopped
   * (thrown) when a stop already parked the row while it waited in line here.
   */
  begin(effect: Effect, key: string): AttemptStop {
    const controller = new AbortController();
    const conversation = conversationOf(effect);
    if (this.stoppedKeys.delete(key)) throw new RunStopped();
    if (conversation === undefined) return { signal: controller.signal, end() {} };
    const runs = this.running.get(conversation) ?? new Set();
    this.running.set(conversation, runs);
    const attempt = { key, user: effect.type === "run" ? userOf(effect.inbound) : undefined, controller };
    runs.add(attempt);
    return {
      signal: controller.signal,
      end: () => {
        runs.delete(attempt);
        if (runs.size === 0 && this.running.get(conversation) === runs) this.running.delete(conversation);
      },
    };
  }

  /** A delivery was recorded (accepted): a stop parks its user's runs in its conversation and aborts those running. */
  recorded(inbound: Inbound, now: number): void {
    const conversation = inbound.type === "agent_session_stopped" ? inbound.conversation?.key : undefined;
    if (conversation === undefined) return;
    const user = userOf(inbound);
    if (user === undefined) {
      log("warn", "stop names no user: no run stopped", { shard: this.shard, conversation, dedupeKey: inbound.dedupeKey });
      return;
    }
    const parked = this.outbox.parked.parkConversationRuns(conversation, user, inbound.dedupeKey, STOPPED_BY_USER, now);
    // In the parking's turn (one commit): each stopped run's open streams are closed from its checkpoints, named by Slack's event or not.
    const checkpoint = (key: string, name: string) => this.outbox.steps.read(key, name);
    const closes = parked.flatMap((key) => streamCloseRows(checkpoint, key, inbound.workspace, inbound.conversation?.channel));
    this.outbox.enqueue(
      closes.map((row) => ({ ...row, followUp: true })),
      now,
      null,
    );
    if (closes.length > 0) this.wakeAt(now);
    // Remembered before aborting: a run lined up behind an aborted one must not begin in between.
    for (const key of parked) this.stoppedKeys.set(key, true, now);
    const runs = [...(this.running.get(conversation) ?? [])].filter((run) => run.user === user);
    for (const { key, controller } of runs) {
      // Begun already: its own attempt settles it parked; a later attempt (a replay) may begin.
      this.stoppedKeys.delete(key);
      controller.abort(new RunStopped());
    }
    log("info", "conversation stopped", { shard: this.shard, conversation, user, parked: parked.length, aborted: runs.length });
  }
}
