import { InvalidSetting } from "../platform/errors";
import { oncePerEnv } from "./once";
import { setting } from "./table";

/** What the front Worker reads on every Slack request. */
export interface EdgeSettings {
  signingSecrets: string[];
  ackBudgetMs: number;
  shardBuckets: number;
  /** SHARD_INGESTS_IN_FLIGHT_MAX: unanswered ingests per shard from this instance before the next is refused. */
  ingestsInFlightMax: number;
  /** LOG_ACKED_REQUESTS: the `slack request` line for recorded deliveries' 200s too. */
  logAcked: boolean;
}

/** How much of a delivery's payload its receipt keeps (EVENT_PAYLOADS; recording/receiptStory.ts). */
export type PayloadKeeping = "full" | "redacted" | "none";

/** What a shard needs to record deliveries: how long receipts are kept, and assistant threads' contexts. */
export interface RecordSettings {
  receiptRetentionMs: number;
  threadContextRetentionMs: number;
  /** EVENT_PAYLOADS: how much of a payload a receipt keeps. */
  eventPayloads: PayloadKeeping;
  /** OVERLOAD_WAIT_MS: an ingest that waited longer in front of its shard is refused (shard/overloadGuard.ts). */
  overloadWaitMs: number;
}

/** The edge's settings; throws InvalidSetting without a signing secret, or for a bad value. */
export const edgeSettings = oncePerEnv((vars): EdgeSettings => {
  const signingSecrets = [setting(vars, "SLACK_SIGNING_SECRET"), setting(vars, "SLACK_SIGNING_SECRET_PREVIOUS")].filter(
    (secret): secret is string => secret !== undefined,
  );
  if (signingSecrets.length === 0) throw new InvalidSetting("SLACK_SIGNING_SECRET", "is not set");
  return {
    signingSecrets,
    ackBudgetMs: setting(vars, "ACK_BUDGET_MS"),
    shardBuckets: setting(vars, "SHARD_BUCKETS"),
    ingestsInFlightMax: setting(vars, "SHARD_INGESTS_IN_FLIGHT_MAX"),
    logAcked: setting(vars, "LOG_ACKED_REQUESTS"),
  };
});

/** A shard's recording settings; a bad one halts recording (the edge acks 503, Slack retries). */
export const recordSettings = oncePerEnv(
  // Fractions are allowed for benchmarks; production wants far more than Slack's ~6 min of retries.
  (vars): RecordSettings => ({
    receiptRetentionMs: Math.round(setting(vars, "RECEIPT_RETENTION_HOURS") * 3_600_000),
    threadContextRetentionMs: setting(vars, "THREAD_CONTEXT_RETENTION_DAYS") * 86_400_000,
    eventPayloads: setting(vars, "EVENT_PAYLOADS") ?? "full",
    overloadWaitMs: setting(vars, "OVERLOAD_WAIT_MS"),
  }),
);
