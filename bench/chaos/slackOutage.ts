import type { Fault } from "../../src/testing/fakeSlack";

/** Slack down for a while under load (issue 40, point 6): every Web API call answered `status` with `error`. */
export interface OutagePlan {
  /** From the load's start. */
  atMs: number;
  durationMs: number;
  status: number;
  error: string;
}

/** What the fake serves that is not Slack's Web API: the relay backend, response_url, alerts, the install page. */
const NOT_WEB_API = new Set(["relay", "response_url", "alert", "oauth.authorize"]);

/**
 * The outage's window, fixed once the load starts, and the fault picker that plays it: inside the
 * window every Web API call gets the outage's answer; outside, `otherwise` (the run's random faults).
 */
export class SlackOutage {
  startsAt = Number.POSITIVE_INFINITY;
  endsAt = Number.POSITIVE_INFINITY;
  /** Web API calls answered with the outage's status. */
  refused = 0;

  constructor(
    readonly plan: OutagePlan,
    private readonly otherwise: (call: { method: string; channel?: string }) => Fault | undefined,
  ) {}

  /** The load starts now: the outage is `atMs` from here. */
  begin(loadStartedAt: number): void {
    this.startsAt = loadStartedAt + this.plan.atMs;
    this.endsAt = this.startsAt + this.plan.durationMs;
  }

  readonly faultFor = (call: { method: string; channel?: string }): Fault | undefined => {
    const now = Date.now();
    if (now >= this.startsAt && now < this.endsAt && !NOT_WEB_API.has(call.method)) {
      this.refused++;
      return { status: this.plan.status, error: this.plan.error };
    }
    return this.otherwise(call);
  };
}

/** The outbox's depth (pending rows over every shard), sampled about once a second while the load runs. */
export class DepthSamples {
  readonly samples: Array<{ at: number; pending: number }> = [];
  private running = true;
  private loop: Promise<void> | undefined;

  /** Starts sampling with `read`; a read that fails (the runtime is down after a kill) is skipped. */
  start(read: () => Promise<{ pending: number }>, everyMs = 1000): void {
    this.loop = (async () => {
      while (this.running) {
        const at = Date.now();
        try {
          this.samples.push({ at, pending: (await read()).pending });
        } catch {
          // Down (a SIGKILL): no sample this time.
        }
        await new Promise((done) => setTimeout(done, Math.max(0, at + everyMs - Date.now())));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/** The outage as the run saw it: the backlog's peak, and how long the drain took once Slack answered again. */
export interface OutageReport {
  plan: OutagePlan;
  /** Seconds from the load's start (as the kills are reported: from the run's start). */
  fromS: number;
  toS: number;
  refusedCalls: number;
  /** The most pending rows sampled from the outage's start on, and when. */
  peakDepth: number | null;
  peakAtS: number | null;
  /** The most pending rows sampled in the 10 s before the outage: what "drained" returns to. */
  depthBefore: number | null;
  /** From Slack's recovery to the first sample at or below `depthBefore`. */
  depthDrainedS: number | null;
  /** Replies the outage held (acked events whose reply came after the outage began) and from the recovery to the last of them. */
  heldReplies: number;
  repliesDrainedS: number | null;
}

/** Reads the outage's figures from the depth samples and the held replies' post times (the fake's clock). */
export function reportOutage(
  outage: SlackOutage,
  depth: DepthSamples,
  heldReplyTimes: readonly number[],
  runStartedAt: number,
): OutageReport {
  const { startsAt, endsAt } = outage;
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const after = depth.samples.filter((s) => s.at >= startsAt);
  const peak = after.reduce<{ at: number; pending: number } | null>(
    (top, s) => (top && top.pending >= s.pending ? top : s),
    null,
  );
  const before = depth.samples.filter((s) => s.at >= startsAt - 10_000 && s.at < startsAt).map((s) => s.pending);
  const depthBefore = before.length ? Math.max(...before) : null;
  const drained = depthBefore === null ? undefined : after.find((s) => s.at >= endsAt && s.pending <= depthBefore);
  const lastReply = heldReplyTimes.length ? Math.max(...heldReplyTimes) : null;
  return {
    plan: outage.plan,
    fromS: seconds(startsAt - runStartedAt),
    toS: seconds(endsAt - runStartedAt),
    refusedCalls: outage.refused,
    peakDepth: peak?.pending ?? null,
    peakAtS: peak ? seconds(peak.at - runStartedAt) : null,
    depthBefore,
    depthDrainedS: drained ? seconds(drained.at - endsAt) : null,
    heldReplies: heldReplyTimes.length,
    repliesDrainedS: lastReply === null ? null : seconds(lastReply - endsAt),
  };
}
