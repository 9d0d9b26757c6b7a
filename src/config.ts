import type { BackoffPolicy } from "./delivery/backoff";
import { InvalidSetting } from "./errors";

/**
 * Settings read from wrangler vars / secrets, each documented in README.md ("Settings"). Parsed
 * once per isolate (per `env` object) and split by who uses them, so the Slack path depends only
 * on what it reads: the edge on its three, a shard's recording on the receipt retention; a bad
 * delivery setting pauses delivery (rows wait, logged) rather than failing acks. A bad value
 * throws InvalidSetting naming the setting, at the first request that needs it.
 */

/** What the front Worker reads on every Slack request. */
export interface EdgeSettings {
  signingSecrets: string[];
  ackBudgetMs: number;
  shardBuckets: number;
}

/** What a shard needs to record deliveries: how long receipts are kept. */
export interface RecordSettings {
  receiptRetentionMs: number;
}

/** What a shard needs to deliver effects. A bad value pauses delivery, not recording. */
export interface ShardSettings {
  apiUrl: string;
  responseUrlOrigins: string[];
  /** Attempts in all for a run whose handler throws its own error, before it is parked. */
  handlerMaxAttempts: number;
  delivery: {
    timeoutMs: number;
    leaseMs: number;
    batchSize: number;
    concurrency: number;
    alarmBudgetMs: number;
    backoff: BackoffPolicy;
  };
}

type Vars = Record<string, unknown>;

function positive(env: Vars, name: string, fallback: number, kind: "integer" | "number" = "integer"): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  const valid = kind === "integer" ? Number.isInteger(value) : Number.isFinite(value);
  if (!valid || value <= 0) throw new InvalidSetting(name, `must be a positive ${kind}, got ${JSON.stringify(raw)}`);
  return value;
}

function text(env: Vars, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A comma-separated list of origins (`https://hooks.slack.com`); each entry must be a bare origin. */
function origins(env: Vars, name: string, fallback: string): string[] {
  return (text(env, name) ?? fallback)
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let origin: string | undefined;
      try {
        origin = new URL(entry).origin;
      } catch {}
      if (origin !== entry.replace(/\/$/, ""))
        throw new InvalidSetting(name, `must list origins like https://hooks.slack.com, got ${JSON.stringify(entry)}`);
      return origin;
    });
}

export const DEFAULT_RESPONSE_URL_ORIGINS = "https://hooks.slack.com,https://hooks.slack-gov.com";

function parseEdgeSettings(vars: Vars): EdgeSettings {
  const signingSecrets = [text(vars, "SLACK_SIGNING_SECRET"), text(vars, "SLACK_SIGNING_SECRET_PREVIOUS")].filter(
    (secret): secret is string => secret !== undefined,
  );
  if (signingSecrets.length === 0) throw new InvalidSetting("SLACK_SIGNING_SECRET", "is not set");
  return {
    signingSecrets,
    ackBudgetMs: positive(vars, "ACK_BUDGET_MS", 2000),
    shardBuckets: positive(vars, "SHARD_BUCKETS", 1),
  };
}

function parseRecordSettings(vars: Vars): RecordSettings {
  // Fractions are allowed for benchmarks; production wants far more than Slack's ~6 min of retries.
  return { receiptRetentionMs: Math.round(positive(vars, "RECEIPT_RETENTION_HOURS", 24, "number") * 3_600_000) };
}

function parseShardSettings(vars: Vars): ShardSettings {
  const timeoutMs = positive(vars, "DELIVERY_TIMEOUT_MS", 10_000);
  const leaseMs = positive(vars, "LEASE_MS", 60_000);
  // The fence exists for leases that run out mid-call; keep that rare.
  if (leaseMs < 2 * timeoutMs)
    throw new InvalidSetting("LEASE_MS", `(${leaseMs}) must be at least twice DELIVERY_TIMEOUT_MS (${timeoutMs})`);
  return {
    apiUrl: text(vars, "SLACK_API_URL") ?? "https://slack.com/api/",
    responseUrlOrigins: origins(vars, "RESPONSE_URL_ORIGINS", DEFAULT_RESPONSE_URL_ORIGINS),
    handlerMaxAttempts: positive(vars, "HANDLER_MAX_ATTEMPTS", 8),
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

/** Memoizes a parse per env object; a failed parse is remembered too, and thrown again. */
function oncePerEnv<T>(parse: (vars: Vars) => T): (env: object) => T {
  const parsed = new WeakMap<object, { value: T } | { error: unknown }>();
  return (env) => {
    let entry = parsed.get(env);
    if (!entry) {
      try {
        entry = { value: parse(env as Vars) };
      } catch (error) {
        entry = { error };
      }
      parsed.set(env, entry);
    }
    if ("error" in entry) throw entry.error;
    return entry.value;
  };
}

export const edgeSettings = oncePerEnv(parseEdgeSettings);
export const recordSettings = oncePerEnv(parseRecordSettings);
export const shardSettings = oncePerEnv(parseShardSettings);
