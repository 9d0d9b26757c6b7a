import type { BackoffPolicy } from "./delivery/backoff";

/** Settings read from wrangler vars / secrets. Each one is documented in README.md ("Settings"). */
export interface Settings {
  signingSecrets: string[];
  ackBudgetMs: number;
  shardBuckets: number;
  receiptRetentionMs: number;
  botToken: string | undefined;
  apiUrl: string;
  delivery: {
    timeoutMs: number;
    leaseMs: number;
    batchSize: number;
    concurrency: number;
    alarmBudgetMs: number;
    backoff: BackoffPolicy;
  };
}

export class InvalidSetting extends Error {
  override name = "InvalidSetting";
}

type Vars = Record<string, unknown>;

function positiveInteger(env: Vars, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new InvalidSetting(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

function positiveNumber(env: Vars, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidSetting(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

function text(env: Vars, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function readSettings(env: object): Settings {
  const vars = env as Vars;
  const timeoutMs = positiveInteger(vars, "DELIVERY_TIMEOUT_MS", 10_000);
  const leaseMs = positiveInteger(vars, "LEASE_MS", 60_000);
  // The fence exists for leases that run out mid-call; keep that rare.
  if (leaseMs < 2 * timeoutMs) throw new InvalidSetting(`LEASE_MS (${leaseMs}) must be at least twice DELIVERY_TIMEOUT_MS (${timeoutMs})`);
  return {
    signingSecrets: [text(vars, "SLACK_SIGNING_SECRET"), text(vars, "SLACK_SIGNING_SECRET_PREVIOUS")].filter((s): s is string => s !== undefined),
    ackBudgetMs: positiveInteger(vars, "ACK_BUDGET_MS", 2000),
    shardBuckets: positiveInteger(vars, "SHARD_BUCKETS", 1),
    // Fractions are allowed for benchmarks; production wants far more than Slack's ~6 min of retries.
    receiptRetentionMs: Math.round(positiveNumber(vars, "RECEIPT_RETENTION_HOURS", 24) * 3_600_000),
    botToken: text(vars, "SLACK_BOT_TOKEN"),
    apiUrl: text(vars, "SLACK_API_URL") ?? "https://slack.com/api/",
    delivery: {
      timeoutMs,
      leaseMs,
      batchSize: positiveInteger(vars, "SWEEP_BATCH_SIZE", 25),
      // Workers allow six simultaneous outgoing connections per invocation; more only queue.
      concurrency: Math.min(positiveInteger(vars, "DELIVERY_CONCURRENCY", 6), 6),
      alarmBudgetMs: positiveInteger(vars, "ALARM_BUDGET_MS", 15_000),
      backoff: {
        baseMs: positiveInteger(vars, "BACKOFF_BASE_MS", 2_000),
        maxMs: positiveInteger(vars, "BACKOFF_MAX_MS", 3_600_000),
        maxAttempts: positiveInteger(vars, "MAX_ATTEMPTS", 36),
      },
    },
  };
}
