import type { DeliveryListener } from "../delivery/events";
import { describeError, log } from "../log";
import type { CallOutcome, DeliveryReport, DestinationRun } from "./outcomes";

/**
 * A shard's side of delivery alerts: collects how requests to each destination went and which
 * rows were parked, and sends that to the watch — one report at a time; what happens while one
 * is on its way goes in the next, so a failing destination at any rate costs the watch one
 * call per round trip, and one failure alone is reported at once. Successes are reported only
 * for a destination this shard saw fail and not yet succeed: steady state sends nothing.
 */
export class DeliveryReports {
  private runs: DestinationRun[] = [];
  private parked?: DeliveryReport["parked"];
  /** Destinations whose last outcome here was a failure. */
  private readonly failing = new Set<string>();
  private sending = false;

  constructor(
    private readonly shard: string,
    private readonly send: (report: DeliveryReport) => Promise<unknown>,
  ) {}

  observe(outcome: CallOutcome, key: string): void {
    if (outcome.ok) {
      // Steady state: a success is news only where this shard last saw a failure.
      if (!this.failing.delete(outcome.destination)) return;
    } else {
      this.failing.add(outcome.destination);
    }
    const last = this.runs.findLast((run) => run.destination === outcome.destination);
    if (last && last.ok === outcome.ok) {
      last.n++;
      last.error = outcome.error;
      last.key = outcome.ok ? undefined : key;
    } else {
      const { destination, label, ok, error } = outcome;
      this.runs.push({ destination, label, ok, n: 1, ...(ok ? {} : { error, key }) });
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
    if (this.sending || (this.runs.length === 0 && !this.parked)) return;
    const report: DeliveryReport = { shard: this.shard, runs: this.runs, parked: this.parked };
    this.runs = [];
    this.parked = undefined;
    this.sending = true;
    try {
      await this.send(report);
    } catch (error) {
      log("warn", "delivery report not sent to the watch; its alerts may be missed", {
        shard: this.shard,
        error: describeError(error),
      });
    } finally {
      this.sending = false;
    }
    void this.flush();
  }
}
