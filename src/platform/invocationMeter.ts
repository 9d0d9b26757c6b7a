import { BoundedMap } from "./boundedMap";
import { DeliveryError, Postponed } from "./deliveryErrors";
import { log } from "./log";

/** Works (listeners, effect kinds) whose calls a shard remembers: an app has a few dozen listeners at most. */
const WORKS_REMEMBERED = 256;

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
 * until the budget is spent — its own, or the shard's window since its last invocation began
 * (InvocationMeters). An attempt begins only with its expected calls promised to it (`promise`):
 * what is `left` for anyone else excludes them, so attempts begun on one invocation never share its
 * last subrequests and cut each other short (issue 43). `lean`: an invocation after one cut an
 * attempt short (and none has made a call since), so its rows go one at a time — six attempts
 * sharing what is left would each be cut short again, for ever.
 */
export class InvocationMeter {
  private made = 0;
  /** Calls promised to attempts running on this invocation that they have not made yet. */
  private promised = 0;
  /** An attempt was cut short: a call of it was refused after others had gone (delivery/performRow.ts). */
  cutShort = false;

  constructor(
    readonly budget: number,
    readonly lean = false,
    private readonly onSpent: () => void = () => {},
    /** Also takes each call: the shard's calls since its last invocation began. */
    private readonly window?: InvocationMeter,
  ) {}

  /** Subrequests still allowed, those promised to running attempts apart. */
  get left(): number {
    return Math.min(this.budget - this.made - this.promised, this.window?.left ?? Infinity);
  }

  get spent(): boolean {
    return this.left <= 0;
  }

  /** Whether it made a call. */
  get used(): boolean {
    return this.made > 0;
  }

  /** Starts counting again from none (the shard's window, at each invocation's start); calls promised stay promised. */
  renew(): void {
    this.made = 0;
  }

  /** Takes one subrequest for a call about to be made; throws SubrequestsSpent (nothing is sent) when none is left. */
  take(): void {
    if (this.spent) throw new SubrequestsSpent(this.budget);
    this.window?.take();
    this.count();
  }

  /**
   * An attempt that expects `calls` begins as this invocation's work: they are promised to it (here
   * and in the window), and its calls draw on them first (AttemptMeter). Undefined, nothing promised,
   * when they do not fit beside what is promised already: the attempt waits for another invocation.
   */
  promise(calls: number): AttemptMeter | undefined {
    if (this.left < calls) return undefined;
    this.hold(calls);
    return new AttemptMeter(this, calls);
  }

  /** `calls` promised (+) or given back (−), here and in the window. */
  hold(calls: number): void {
    this.promised += calls;
    this.window?.hold(calls);
  }

  /** A promised call is made: it cannot be refused (what is promised always fits). */
  keep(): void {
    this.promised--;
    this.window?.keep();
    this.count();
  }

  private count(): void {
    if (++this.made === this.budget) this.onSpent();
  }
}

/**
 * One attempt's share of its invocation (`InvocationMeter.promise`): its calls take what was promised
 * to it first, then what is left to anyone — refused once that is spent, as any call. `end()` gives
 * back what it did not use and says how many calls it asked for (delivery/deliverClaimed.ts learns
 * from it what the next attempt of the same work should be promised).
 */
export class AttemptMeter extends InvocationMeter {
  /** Calls it asked for: made, and the one refused if any. */
  private asked = 0;

  constructor(
    readonly invocation: InvocationMeter,
    private unused: number,
  ) {
    super(invocation.budget, invocation.lean);
  }

  override get left(): number {
    return this.unused + this.invocation.left;
  }

  override get used(): boolean {
    return this.asked > 0;
  }

  override take(): void {
    this.asked++;
    if (this.unused > 0) {
      this.unused--;
      this.invocation.keep();
    } else this.invocation.take();
  }

  /** The attempt ended: what was promised and not used goes back to its invocation. Returns the calls it asked for. */
  end(): number {
    this.invocation.hold(-this.unused);
    this.unused = 0;
    return this.asked;
  }
}

/**
 * A shard's meters, safe whichever way Cloudflare counts (docs/reference/delivery.md "Cloudflare's
 * limits"): (a) per invocation — each alarm, each incoming RPC counts what the work it started makes,
 * even after its response; or (b) on the object's one limit enforcer, topped up at each incoming
 * call (workerd's `topUpActor()`; Cloudflare's docs do not say what a top-up restores).
 *
 * (a) Each invocation has a meter of its own, `current` from its start: the work it starts counts
 * on it — the sweep on its alarm's, an ingest's immediate attempts on the ingest's — however long it
 * runs. Work an attempt's end starts — rows that waited in line, a thread's next turn — counts on
 * that attempt's invocation, as a runtime following the promise chain would count it; once that is
 * spent, rows in line wait for the next invocation (delivery/immediateAttempts.ts).
 * (b) Every call also takes from one window the shard renews at each invocation's start: the calls
 * made since the last top-up never exceed one budget, whoever made them. Under (a) the window only
 * ever refuses sooner (it counts a superset of any invocation's calls since that top-up).
 *
 * So a shard that is never idle renews both at each ingest and never runs dry; a shard whose
 * ingests stopped while attempts still run has one budget for all of them until the next alarm.
 */
export class InvocationMeters {
  private meter: InvocationMeter;
  /** The most calls an attempt of each work asked for (a run's listener, an effect's kind): what the next is promised. */
  private readonly asked = new BoundedMap<string, number>(WORKS_REMEMBERED);
  /** The shard's calls since the last invocation began, whichever invocation's work made them. */
  private readonly window: InvocationMeter;
  /** An attempt was cut short since the last invocation began (on whichever meter). */
  private cut = false;

  constructor(
    private readonly budget: number,
    private readonly shard: string,
  ) {
    this.window = this.fresh();
    this.meter = this.fresh(false, this.window);
  }

  /** The meter of the invocation that began last: work it starts counts on it. */
  get current(): InvocationMeter {
    return this.meter;
  }

  /** An invocation begins (an alarm, an ingest): a meter of its own, and the window renewed (its top-up). */
  invoked(): void {
    const last = this.meter;
    const lean = this.cut || last.cutShort || (last.lean && !last.used);
    this.cut = false;
    this.window.renew();
    this.meter = this.fresh(lean, this.window);
  }

  /**
   * The calls promised to an attempt of `work`: the most one asked for in this isolate — `unseen` for
   * work not seen yet, at most a whole budget (an attempt that needs more is cut short, then parked in the end).
   */
  expectedCalls(work: string, unseen = 1): number {
    return Math.min(this.budget, this.asked.get(work) ?? unseen);
  }

  /** An attempt of `work` ended: what it did not use goes back to its invocation, and what it asked for is remembered. */
  ended(work: string, meter: AttemptMeter): void {
    const asked = meter.end();
    if (asked > (this.asked.get(work) ?? 0)) this.asked.set(work, asked);
  }

  /** An attempt of `meter`'s was cut short: the next invocation goes one row at a time. */
  cutShort(meter: InvocationMeter): void {
    (meter instanceof AttemptMeter ? meter.invocation : meter).cutShort = true;
    this.cut = true;
  }

  private fresh(lean = false, window?: InvocationMeter): InvocationMeter {
    const budget = this.budget;
    return new InvocationMeter(
      budget,
      lean,
      () => log("warn", "subrequests of this invocation spent; the rest waits for the next alarm", { shard: this.shard, budget }),
      window,
    );
  }
}
