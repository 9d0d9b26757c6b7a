import { Postponed } from "./deliveryErrors";
import { log } from "./log";

/** A row refused for a spent budget is due again this long after, when the next alarm's budget is its. */
export const SPENT_RESUME_MS = 1_000;

/**
 * What delivery may spend of SUBREQUESTS_PER_INVOCATION: a tenth (at least one) is left for the
 * subrequests it does not count — its reports to the watch (the alerts), the shard's minute of
 * metrics, an installation's token lookups in OAuth mode, a handler's own fetches.
 */
export function deliveryBudgetOf(subrequestsPerInvocation: number): number {
  return subrequestsPerInvocation - Math.max(1, Math.ceil(subrequestsPerInvocation / 10));
}

/** A call refused before it was sent: this invocation's subrequests are spent. Its row waits, no attempt counted. */
export class SubrequestsSpent extends Postponed {
  override name = "SubrequestsSpent";
  constructor(
    readonly budget: number,
    readonly until: number,
  ) {
    super(`the invocation's ${budget} subrequests are spent; continues in the next alarm`);
  }
}

/** The subrequests of one invocation: each fetch and each RPC to another Durable Object takes one, until the budget is spent. */
export class InvocationMeter {
  private made = 0;

  constructor(
    readonly budget: number,
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
    if (this.spent) throw new SubrequestsSpent(this.budget, Date.now() + SPENT_RESUME_MS);
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
    if (this.running === 0) this.meter = this.fresh();
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

  private fresh(): InvocationMeter {
    const budget = this.budget;
    return new InvocationMeter(budget, () =>
      log("warn", "subrequests of this invocation spent; the rest waits for the next alarm", { shard: this.shard, budget }),
    );
  }
}
