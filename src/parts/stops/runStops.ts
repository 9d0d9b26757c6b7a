import type { Effect } from "../../app/contract";
import { stoppedStreams } from "../../inbound/stoppedStreams";
import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { BoundedMap } from "../../platform/boundedMap";
import { INTERRUPTED, RunStopped, STOPPED_BY_USER } from "../../platform/errors";
import { log } from "../../platform/log";
import type { Outbox } from "../../recording/outbox";
import { streamCloseRows } from "../../recording/streamCloseRows";
import type { ShardPart } from "../part";
import { ConversationStops } from "./conversationStops";

/** Keys a stop or an interrupt stopped while their attempt was already lined up in this isolate (claimed, not begun). */
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
 * another user's (inbound/userOf.ts). On the stop's ingest those of its runs that wait are marked
 * stopped ("stopped by user": recording/stoppedRows.ts) — the durable record: a stopped row is
 * never claimed again, by this isolate or the next — and those in an attempt in this isolate are
 * aborted through their signal; an attempt already lined up (claimed before the stop) finds its key
 * here and never begins. A stop is an outcome: never parked, alerted on or logged as an error. The
 * stop's own Slack calls are planned (app/agent/agentSessions.ts); the messages its runs' checkpoints
 * show streaming are closed by follow-ups (recording/streamCloseRows.ts).
 */
export class Stops implements ShardPart {
  /** Attempts running now, by conversation: a stop aborts each of its user's. */
  private readonly running = new Map<string, Set<Running>>();
  /** Each such key's stop: what its attempt throws if it would begin (a user's stop, or an interrupt). */
  private readonly stoppedKeys = new BoundedMap<string, RunStopped>(STOPPED_KEYS_MAX);
  /** When each user last stopped each conversation (conversationStops.ts). */
  private readonly stops: ConversationStops;

  constructor(
    private readonly outbox: Outbox,
    private readonly shard: string,
    /** Moves the shard's alarm earlier: the stopped runs' streams are closed at once. */
    private readonly arm: (at: number) => void = () => {},
    /** A conversation's turns that were waiting may begin: the ones stopped here no longer hold its thread. */
    private readonly released: (conversation: string) => void = () => {},
  ) {
    this.stops = new ConversationStops(outbox.sql);
  }

  /**
   * An attempt of `key` begins: its signal, aborted when its conversation is stopped; RunStopped
   * (thrown) when a stop already stopped the row while it waited in line here, or — a row past its
   * first lease (`recordedAt`: when its delivery was recorded) — when its user stopped its
   * conversation after it was recorded (a run no index found when the stop came: conversationStops.ts).
   */
  begin(effect: Effect, key: string, recordedAt?: number): AttemptStop {
    const controller = new AbortController();
    const conversation = conversationOf(effect);
    const stopped = this.stoppedKeys.get(key);
    if (stopped && this.stoppedKeys.delete(key)) throw stopped;
    if (conversation === undefined) return { signal: controller.signal, end() {} };
    const user = effect.type === "run" ? userOf(effect.inbound) : undefined;
    // A primary-key read, for rows past their first lease only: a fresh row is stopped by the stop itself.
    const stoppedAt = recordedAt === undefined || user === undefined ? null : this.stops.stoppedAt(conversation, user);
    if (stoppedAt !== null && recordedAt !== undefined && recordedAt <= stoppedAt)
      throw new RunStopped(STOPPED_BY_USER, [], false);
    const runs = this.running.get(conversation) ?? new Set();
    this.running.set(conversation, runs);
    const attempt = { key, user, controller };
    runs.add(attempt);
    return {
      signal: controller.signal,
      end: () => {
        runs.delete(attempt);
        if (runs.size === 0 && this.running.get(conversation) === runs) this.running.delete(conversation);
      },
    };
  }

  /**
   * A delivery was recorded (accepted), in its ingest's turn: a stop parks its conversation's runs,
   * then a turn that interrupts stops those its ingest parked — before its own attempt begins.
   */
  recorded(inbound: Inbound, now: number, interrupted: readonly string[]): void {
    this.stopRecorded(inbound, now);
    this.interrupted(inbound, interrupted, now);
  }

  /** A stop ends its user's runs in its conversation and aborts those running. */
  private stopRecorded(inbound: Inbound, now: number): void {
    const conversation = inbound.type === "agent_session_stopped" ? inbound.conversation?.key : undefined;
    if (conversation === undefined) return;
    const user = userOf(inbound);
    if (user === undefined) {
      const event_id = inbound.dedupeKey;
      log("warn", "stop names no user: no run stopped", { event_id, shard: this.shard, conversation, dedupeKey: event_id });
      return;
    }
    const ended = this.outbox.stopped.stopConversationRuns(
      conversation,
      user,
      inbound.dedupeKey,
      STOPPED_BY_USER,
      now,
      this.candidates(conversation),
    );
    // Written in the stop's own commit: a run of this user's recorded before it that no index found stops as it begins.
    this.stops.record(conversation, user, now);
    const stop = new RunStopped(STOPPED_BY_USER, stoppedStreams(inbound));
    const aborted = this.stop(inbound, conversation, ended, (run) => run.user === user, stop, now);
    log("info", "conversation stopped", {
      event_id: inbound.dedupeKey,
      shard: this.shard,
      conversation,
      user,
      stopped: ended.length,
      aborted,
    });
  }

  /** Rows a stop of `conversation` may stop besides its indexed turns: its lead, its runs in an attempt, the rows leased out (by key). */
  private candidates(conversation: string): string[] {
    const running = [...(this.running.get(conversation) ?? [])].map((run) => run.key);
    const lead = this.outbox.turns.leadKey(conversation);
    return [...running, ...(lead === undefined ? [] : [lead]), ...this.outbox.memory.leases.keys()];
  }

  /** The alarm's part: stops kept past their week go (conversationStops.ts), stopped runs past their day (recording/stoppedRows.ts). */
  prune(now: number): void {
    this.stops.prune(now);
    if (this.outbox.stopped.prune(now)) this.arm(now + 1_000);
  }

  /**
   * A new turn interrupted the turns of its conversation that `ended` names (`turns: "interrupt"`,
   * stopped by its ingest: recording/outboxTurns.ts): stopped as the stop button stops them, for
   * whichever user, each with the reason "interrupted by a newer message".
   */
  private interrupted(inbound: Inbound, ended: readonly string[], now: number): void {
    const conversation = inbound.conversation?.key;
    if (conversation === undefined || ended.length === 0) return;
    const keys = new Set(ended);
    const aborted = this.stop(inbound, conversation, ended, (run) => keys.has(run.key), new RunStopped(INTERRUPTED), now);
    log("info", "turn interrupted", {
      event_id: inbound.dedupeKey,
      shard: this.shard,
      conversation,
      dedupeKey: inbound.dedupeKey,
      stopped: ended.length,
      aborted,
    });
  }

  /**
   * The runs `ended` (marked stopped in this turn, one commit): their open streams closed from their
   * checkpoints, named by Slack's event or not; those lined up here never begin; those running
   * (`which` of the conversation's) aborted with `stop`; the conversation's waiting turns may begin.
   * Returns how many were aborted.
   */
  private stop(
    inbound: Inbound,
    conversation: string,
    ended: readonly string[],
    which: (run: Running) => boolean,
    stop: RunStopped,
    now: number,
  ): number {
    const checkpoint = (key: string, name: string) => this.outbox.steps.read(key, name);
    const closes = ended.flatMap((key) => streamCloseRows(checkpoint, key, inbound.workspace, inbound.conversation?.channel));
    this.outbox.enqueue(
      closes.map((row) => ({ ...row, followUp: true })),
      now,
      null,
    );
    if (closes.length > 0) this.arm(now);
    // Remembered before aborting: a run lined up behind an aborted one must not begin in between.
    for (const key of ended) this.stoppedKeys.set(key, stop, now);
    const runs = [...(this.running.get(conversation) ?? [])].filter(which);
    for (const { key, controller } of runs) {
      // Begun already: its own attempt settles it stopped.
      this.stoppedKeys.delete(key);
      controller.abort(stop);
    }
    if (ended.length > 0) this.released(conversation);
    return runs.length;
  }
}
