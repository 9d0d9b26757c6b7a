import { BoundedMap } from "../platform/boundedMap";
import type { DeliveryListener } from "../platform/deliveryEvents";
import { describeError, log } from "../platform/log";
import type { CallOutcome, DeliveryReport, DestinationRun } from "../rpc/outcomes";

/** After a report could not be sent, the next try waits this long (what happened meanwhile joins it). */
const RESEND_AFTER_MS = 5_000;
/** Runs kept while the watch cannot be reached (or a report is on its way); the oldest go first beyond this. */
export const MAX_PENDING_RUNS = 500;
/** Destinations whose last outcome is remembered; one forgotten says its next success again, as news. */
export const MAX_DESTINATIONS = 10_000;

/**
 * A shard's side of delivery alerts: collects how requests to each destination went and which
 * rows were parked, and sends that to the watch — one report at a time; what happens while one
 * is on its way goes in the next, so a failing destination at any rate costs the watch one
 * call per round trip, and one failure alone is reported at once. A report the watch did not
 * take is kept and sent again. Successes are reported only where news: the first per
 * destination in this instance's life (an instance evicted mid-streak forgets it saw failures),
 * and the first after failures seen here. Steady state sends nothing.
 */
export class DeliveryReports {
  private runs: DestinationRun[] = [];
  private parked?: DeliveryReport["parked"];
  /** Destinations this instance has reported on, and whether the last outcome here was a failure. */
  private readonly lastFailed = new BoundedMap<string, boolean>(MAX_DESTINATIONS);
  private sending = false;
  private resendTimer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly shard: string,
    private readonly send: (report: DeliveryReport) => Promise<unknown>,
  ) {}

  observe(outcome: CallOutcome, key: string): void {
    const { destination } = outcome;
    // Steady state: a success is news only after failures, or as the first word of this instance.
    if (outcome.ok && this.lastFailed.get(destination) === false) return;
    this.lastFailed.set(destination, !outcome.ok);
    const last = this.runs.findLast((run) => run.destination === destination);
    if (last && last.ok === outcome.ok) {
      last.n++;
      last.error = outcome.error;
      last.key = outcome.ok ? undefined : key;
    } else {
      const { label, ok, error } = outcome;
      this.runs.push({ destination, label, ok, n: 1, ...(ok ? {} : { error, key }) });
      if (this.runs.length > MAX_PENDING_RUNS) this.runs.shift();
    }
    void this.flush();
  }

  /** The delivery-events subscriber for parked rows. */
  readonly onEvent: DeliveryListener = (event) => {
    if (event.type !== "parked") return;
    this.parked = { count: (this.parked?.count ?? 0) + 1, reason: event.reason, key: event.key };
    void this.flush();
  };

  private async flush(): Promise<void> {
    if (this.sending || this.resendTimer !== undefined || (this.runs.length === 0 && !this.parked)) return;
    const report: DeliveryReport = { shard: this.shard, runs: this.runs, parked: this.parked };
    this.runs = [];
    this.parked = undefined;
    this.sending = true;
    try {
      await this.send(report);
    } catch (error) {
      this.keep(report);
      log("warn", "delivery report not taken by the watch; sent again shortly", {
        shard: this.shard,
        error: describeError(error),
      });
      this.resendTimer = setTimeout(() => {
        this.resendTimer = undefined;
        void this.flush();
      }, RESEND_AFTER_MS);
    } finally {
      this.sending = false;
    }
    void this.flush();
  }

  /** Puts an unsent report back before what happened since. */
  private keep(report: DeliveryReport): void {
    this.runs = [...report.runs, ...this.runs].slice(-MAX_PENDING_RUNS);
    if (report.parked) {
      const newer = this.parked;
      this.parked = newer ? { ...newer, count: newer.count + report.parked.count } : report.parked;
    }
  }
}
