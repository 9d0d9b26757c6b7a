import type { BackoffPolicy } from "../platform/backoff";
import { InvalidSetting } from "../platform/errors";
import { type HistoryReads, historyReads } from "./historyReads";
import { oncePerEnv } from "./once";
import { type RelaySettings, relaySettings } from "./relaySettings";
import { setting } from "./table";

/**
 * What a shard needs to deliver effects. A bad value pauses delivery, not recording. An effect
 * kind reads its own settings itself (src/effects/), and a bad one pauses delivery as well.
 */
export interface DeliverySettings {
  apiUrl: string;
  responseUrlOrigins: string[];
  /** Relay mode's settings, or null. */
  relay: RelaySettings | null;
  /** SLACK_PACING: Web API calls paced by Slack's published limits (src/pacing/), or only slowed by 429s. */
  pacing: boolean;
  /** SLACK_STREAM_BURST: stream starts (and stops) that may go at once per workspace when pacing. */
  streamBurst: number;
  /**
   * SLACK_APP_DISTRIBUTION, SLACK_HISTORY_*: how fast and how many messages a page an uncertain
   * post (or a lost stream start) is looked for with conversations.history / replies, and how long
   * at most an uncertain post waits for its lookup.
   */
  history: HistoryReads;
  /** SHARD_BUCKETS: where a workspace's rate keys are kept (one shard each, by hash). */
  shardBuckets: number;
  /**
   * AGENT_SESSIONS: a user's message is worked on in its thread's agent session; RUN_RETRYING_TEXT,
   * RUN_PARKED_TEXT: the failure notices' words unless the app chooses its own (delivery/failureNotices.ts).
   */
  agent: { sessions: boolean; retryingText: string; parkedText: string };
  delivery: {
    timeoutMs: number;
    leaseMs: number;
    batchSize: number;
    concurrency: number;
    alarmBudgetMs: number;
    /** SUBREQUESTS_PER_INVOCATION: what Cloudflare allows an invocation; delivery spends all but a tenth (platform/invocationMeter.ts). */
    subrequestsPerInvocation: number;
    backoff: BackoffPolicy;
  };
}

/** A shard's delivery settings; throws InvalidSetting for a bad one (the shard pauses delivery). */
export const deliverySettings = oncePerEnv((vars): DeliverySettings => {
  const timeoutMs = setting(vars, "DELIVERY_TIMEOUT_MS");
  const leaseMs = setting(vars, "LEASE_MS");
  // The fence exists for leases that run out mid-call; keep that rare.
  if (leaseMs < 2 * timeoutMs)
    throw new InvalidSetting("LEASE_MS", `(${leaseMs}) must be at least twice DELIVERY_TIMEOUT_MS (${timeoutMs})`);
  const subrequestsPerInvocation = setting(vars, "SUBREQUESTS_PER_INVOCATION");
  // Fewer leaves delivery a budget of a call or two an alarm, or none: a typo, not a plan.
  if (subrequestsPerInvocation < 10)
    throw new InvalidSetting("SUBREQUESTS_PER_INVOCATION", `(${subrequestsPerInvocation}) must be at least 10`);
  return {
    apiUrl: setting(vars, "SLACK_API_URL"),
    responseUrlOrigins: setting(vars, "RESPONSE_URL_ORIGINS"),
    relay: relaySettings(vars),
    pacing: setting(vars, "SLACK_PACING"),
    streamBurst: setting(vars, "SLACK_STREAM_BURST"),
    history: historyReads(vars),
    shardBuckets: setting(vars, "SHARD_BUCKETS"),
    agent: {
      sessions: setting(vars, "AGENT_SESSIONS"),
      retryingText: setting(vars, "RUN_RETRYING_TEXT"),
      parkedText: setting(vars, "RUN_PARKED_TEXT"),
    },
    delivery: {
      timeoutMs,
      leaseMs,
      batchSize: setting(vars, "SWEEP_BATCH_SIZE"),
      // Workers allow six simultaneous outgoing connections per invocation; more only queue.
      concurrency: Math.min(setting(vars, "DELIVERY_CONCURRENCY"), 6),
      alarmBudgetMs: setting(vars, "ALARM_BUDGET_MS"),
      subrequestsPerInvocation,
      backoff: {
        baseMs: setting(vars, "BACKOFF_BASE_MS"),
        maxMs: setting(vars, "BACKOFF_MAX_MS"),
        maxAttempts: setting(vars, "MAX_ATTEMPTS"),
      },
    },
  };
});
