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

function positive(env: Vars, name: string, fallback: number, kind: "integer" | "number" = "integer"): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  const valid = kind === "integer" ? Number.isInteger(value) : Number.isFinite(value);
  if (!valid || value <= 0) throw new InvalidSetting(`${name} must be a positive ${kind}, got ${JSON.stringify(raw)}`);
  return value;
}

function text(env: Vars, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function readSettings(env: object): Settings {
  const vars = env as Vars;
  const timeoutMs = positive(vars, "DELIVERY_TIMEOUT_MS", 10_000);
  const leaseMs = positive(vars, "LEASE_MS", 60_000);
  // The fence exists for leases that run out mid-call; keep that rare.
  if (leaseMs < 2 * timeoutMs) throw new InvalidSetting(`LEASE_MS (${leaseMs}) must be at least twice DELIVERY_TIMEOUT_MS (${timeoutMs})`);
  return {
    signingSecrets: [text(vars, "SLACK_SIGNING_SECRET"), text(vars, "SLACK_SIGNING_SECRET_PREVIOUS")].filter((s): s is string => s !== undefined),
    ackBudgetMs: positive(vars, "ACK_BUDGET_MS", 2000),
    shardBuckets: positive(vars, "SHARD_BUCKETS", 1),
    // Fractions are allowed for benchmarks; production wants far more than Slack's ~6 min of retries.
    receiptRetentionMs: Math.round(positive(vars, "RECEIPT_RETENTION_HOURS", 24, "number") * 3_600_000),
    botToken: text(vars, "SLACK_BOT_TOKEN"),
    apiUrl: text(vars, "SLACK_API_URL") ?? "https://slack.com/api/",
    delivery: {
      timeoutMs,
      leaseMs,
      batchSize: positive(vars, "SWEEP_BATCH_SIZE", 25),
      // Workers allow six simultaneous outgoing connections per invocation; more only queue.
      concurrency: Math.min(positive(vars, "DELIVERY_CONCURRENCY", 6), 6),
      alarmBudgetMs: positive(vars, "ALARM_BUDGET_MS", 15_000),
      backoff: {
        baseMs: positive(vars, "BACKOFF_BASE_MS", 2_000),
        maxMs: positive(vars, "BACKOFF_MAX_MS", 3_600_000),
        maxAttempts: positive(vars, "MAX_ATTEMPTS", 36),
      },
    },
  };
}
