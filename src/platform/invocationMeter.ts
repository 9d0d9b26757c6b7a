import { DeliveryError, Postponed } from "./deliveryErrors";
import { log } from "./log";

/** A row not begun for a spent budget is due again this long after, when the next alarm's budget is its. */
export const SPENT_RESUME_MS = 1_000;

/**
 * What delivery may spend of SUBREQUESTS_PER_INVOCATION: a tenth (at least one) is left for the
 * subrequests it does not count — its reports to the watch (the alerts), the shard's minute of
 * metrics, an installation's token lookups in OAuth mode, a handler's own fetches.
 */
export function deliveryBudgetOf(subrequestsPerInvocation: number): number {
  return subrequestsPerInvocation - Math.max(1, Math.ceil(subrequestsPerInvocation / 10));
}

/**
 * A call refused before it was sent: the invocation's subrequests were spent while this attempt
 * was under way. Retried like a call that got no answer — counted, after backoff — so an attempt
 * that needs more than a whole invocation allows is parked in the end, with this reason, rather
 * than tried again for ever.
 */
export class SubrequestsSpent extends DeliveryError {
  override name = "SubrequestsSpent";
  readonly disposition = "retry";
  constructor(readonly budget: number) {
    super(`the invocation's ${budget} subrequests were spent before the attempt ended (SUBREQUESTS_PER_INVOCATION)`);
  }
}

/** An attempt none of whose calls could go: the invocation's subrequests were spent before its first. Not begun: it waits, no attempt counted. */
export class NoSubrequestsLeft extends Postponed {
  override name = "NoSubrequestsLeft";
  constructor(
    readonly budget: number,
    readonly until: number,
  ) {
    super(`the invocation's ${budget} subrequests were spent before the attempt's first call; continues in the next alarm`);
  }
}

/**
 * The subrequests of one invocation: each fetch and each RPC to another Durable Object takes one,
 * until the budget is spent. `lean`: an invocation before it cut an attempt short (and none has
 * made a call since), so its rows go one at a time — six attempts sharing what is left would each
 * be cut short again, for ever.
 */
export class InvocationMeter {
  private made = 0;
  /** An attempt was cut short: a call of it was refused after others had gone (delivery/performRow.ts). */
  cutShort = false;

  constructor(
    readonly budget: number,
    readonly lean = false,
    private readonly onSpent: () => void = () => {},
  ) {}

  /** Subrequests still allowed. */
  get left(): number {
    return this.budget - this.made;
  }

  get spent(): boolean {
    return this.made >= this.budget;
  }

  /** Takes one subrequest for a call about to be made; throws SubrequestsSpent (nothing is sent) when none is left. */
  take(): void {
    if (this.spent) throw new SubrequestsSpent(this.budget);
    if (++this.made === this.budget) this.onSpent();
  }
}

/**
 * A shard's meters. Cloudflare counts subrequests per invocation — each alarm, each incoming RPC —
 * but a Durable Object's invocations share one I/O context: workerd counts every subrequest on the
 * object's one limit enforcer and tops it up at each incoming call, and work an RPC started goes on
 * after its response (Cloudflare's docs do not say what a top-up restores). So the meter is kept
 * safe under either reading: a new one starts only when an invocation begins while no delivery
 * work is running, and everything that runs until then — the sweep, the immediate attempts of the
 * ingests that came meanwhile, the rows they let go — counts on the one meter it joined.
 */
export class InvocationMeters {
  private meter: InvocationMeter;
  private running = 0;

  constructor(
    private readonly budget: number,
    private readonly shard: string,
  ) {
    this.meter = this.fresh();
  }

  /** The meter every call counts on now. */
  get current(): InvocationMeter {
    return this.meter;
  }

  /** An invocation begins (an alarm, an ingest): with no delivery work running, nothing counts against it yet. */
  invoked(): void {
    // Only here: a meter started mid-invocation would not see what that invocation already made.
    if (this.running === 0) this.meter = this.fresh(this.meter.cutShort || (this.meter.lean && this.meter.left === this.budget));
  }

  /** Delivery work begins (a sweep, a batch of rows); the returned release says it ended. */
  hold(): () => void {
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }

  /**
   * When due rows may wake the shard: while a spent meter is still held by running work, no
   * sooner than SPENT_RESUME_MS from now — an alarm then would find nothing to spend and re-arm at once.
   */
  wakeAt(at: number | null, now = Date.now()): number | null {
    if (at === null || !(this.meter.spent && this.running > 0)) return at;
    return Math.max(at, now + SPENT_RESUME_MS);
  }

  private fresh(lean = false): InvocationMeter {
    const budget = this.budget;
    return new InvocationMeter(budget, lean, () =>
      log("warn", "subrequests of this invocation spent; the rest waits for the next alarm", { shard: this.shard, budget }),
    );
  }
}
