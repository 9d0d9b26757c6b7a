import { type CallDeadline, CallDeadlines, ownDeadline } from "./callDeadlines";
import { ConnectionSlots } from "./connectionSlots";
import type { DeliveryError } from "./deliveryErrors";
import {
  type InvocationMeter,
  type InvocationMeters,
  NoSubrequestsLeft,
  SPENT_RESUME_MS,
  SubrequestsSpent,
} from "./invocationMeter";

/** A call's deadline passed before its answer came (DELIVERY_TIMEOUT_MS, RELAY_TIMEOUT_MS, …). */
export class CallTimedOut extends Error {
  override name = "CallTimedOut";
  constructor(
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(`no answer within ${timeoutMs} ms`, options);
  }
}

/** The way out for delivery's calls: every outbound fetch, and every RPC to another Durable Object. */
export interface Outbound {
  /**
   * One fetch (`send` makes exactly one, and reads its answer) with `signal` aborted `timeoutMs`
   * after it leaves; `send` may call `answered` once its response headers are in (its connection
   * slot is freed there, the body still read within the timeout).
   */
  call<T>(timeoutMs: number, send: Send<T>): Promise<T>;
  /** One RPC to another Durable Object (a pace keeper's turn). */
  rpc<T>(send: () => Promise<T>): Promise<T>;
}

/** One outbound call: made with `signal`, telling `answered` when its response headers arrive. */
export type Send<T> = (signal: AbortSignal, answered: () => void) => Promise<T>;

const NOTHING = () => {};

/** `send` within `deadline`; its deadline passing is thrown as CallTimedOut. */
async function within<T>(deadline: CallDeadline, timeoutMs: number, send: Send<T>, answered: () => void = NOTHING): Promise<T> {
  try {
    return await send(deadline.signal, answered);
  } catch (error) {
    throw deadline.signal.aborted ? new CallTimedOut(timeoutMs, { cause: error }) : error;
  } finally {
    deadline.end();
  }
}

/** Where no shard keeps count (an edge's one-off call): a timer of its own per call, nothing metered. */
export const DIRECT: Outbound = {
  call: (timeoutMs, send) => within(ownDeadline(timeoutMs), timeoutMs, send),
  rpc: (send) => send(),
};

/**
 * A shard's one door for delivery's outbound calls, as Cloudflare counts them per invocation
 * (docs/reference/delivery.md "Cloudflare's limits"): each takes a subrequest from its invocation's
 * meter (`countedOn`; else the one that began last), refused, unsent, once spent; a fetch holds one of the shard's OPEN_CONNECTIONS_MAX
 * connection slots — its immediate attempts' and its sweep's alike, since a Durable Object's
 * invocations share one I/O context — and its timeout starts when it leaves, not while it queues.
 */
export class OutboundCalls implements Outbound {
  constructor(
    readonly meters: InvocationMeters,
    readonly slots = new ConnectionSlots(),
    private readonly deadlines = new CallDeadlines(),
  ) {}

  /** The door for work of one invocation: its calls count on `meter` (the slots and timers are the shard's). */
  countedOn(meter: InvocationMeter): Outbound {
    return { call: (timeoutMs, send) => this.call(timeoutMs, send, meter), rpc: (send) => this.rpc(send, meter) };
  }

  async call<T>(timeoutMs: number, send: Send<T>, meter = this.meters.current): Promise<T> {
    // Counted as it is asked for, as the runtime counts a fetch it queues: a refused call takes no slot.
    meter.take();
    const release = await this.slots.acquire();
    // Started once the slot is held: a call that queued behind five slow ones still gets its whole timeout.
    try {
      // Freed at its response headers (a release is once only): since Cloudflare's relaxed connection
      // limiting (2026-04-09) a connection counts only until then, so a body still being read holds none.
      return await within(this.deadlines.start(timeoutMs), timeoutMs, send, release);
    } finally {
      release();
    }
  }

  async rpc<T>(send: () => Promise<T>, meter = this.meters.current): Promise<T> {
    // A Durable Object RPC is a subrequest but holds no connection slot (Cloudflare lists fetch, KV, R2, Cache, Queues, sockets).
    meter.take();
    return await send();
  }
}

/**
 * One attempt's way out through its shard's door. It remembers a refusal for a spent budget, so
 * a handler that catches the error in its own `try/catch` still does not have its row taken as
 * delivered (delivery/performRow.ts asks `refusal()` once the attempt has ended).
 */
export class AttemptOutbound implements Outbound {
  private refused?: SubrequestsSpent;
  /** Calls of this attempt that went (took a subrequest), whatever their answer. */
  private sent = 0;

  constructor(
    private readonly door: Outbound,
    /** Told when this attempt is cut short after some of its calls went. */
    private readonly cutShort: () => void = () => {},
  ) {}

  call<T>(timeoutMs: number, send: Send<T>): Promise<T> {
    return this.noted(this.door.call(timeoutMs, send));
  }

  rpc<T>(send: () => Promise<T>): Promise<T> {
    return this.noted(this.door.rpc(send));
  }

  /**
   * What the attempt comes to if a call of it was refused: none went — not begun, the row waits for
   * the next alarm, uncounted; some went — cut short, retried and counted (a row needing more than
   * an invocation allows is parked in the end), and the next invocation goes one row at a time.
   */
  refusal(): DeliveryError | undefined {
    if (!this.refused) return undefined;
    if (this.sent === 0) return new NoSubrequestsLeft(this.refused.budget, Date.now() + SPENT_RESUME_MS);
    this.cutShort();
    return this.refused;
  }

  private async noted<T>(going: Promise<T>): Promise<T> {
    try {
      const answered = await going;
      this.sent++;
      return answered;
    } catch (error) {
      if (error instanceof SubrequestsSpent) this.refused ??= error;
      else this.sent++;
      throw error;
    }
  }
}
