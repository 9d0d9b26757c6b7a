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

/** Relay mode: on when RELAY_URL is set (README "Relay an existing app"). */
export interface RelaySettings {
  url: string;
  /** Signs what is relayed as Slack would: RELAY_SIGNING_SECRET, else SLACK_SIGNING_SECRET. */
  signingSecret: string;
  timeoutMs: number;
  /**
   * Commands and interactivity: how long after the request arrived the ack may wait for the
   * backend's answer to its first attempt (0: never wait). At most RELAY_SYNC_MS_MAX.
   */
  syncMs: number;
  retryHours: number;
  /** Standard Webhooks secret (`whsec_…`), for backends that verify that scheme too. */
  webhookSecret?: string;
}

/**
 * Alerts and the guard against Slack's auto-disable (README "Alerts"). Read leniently: a bad value
 * falls back to its default (none, for the URL) and is listed in `problems` — monitoring that is
 * misconfigured must neither stop deliveries nor go quiet about everything else.
 */
export interface AlertSettings {
  /** Where alerts are POSTed as `{"text": …}` (a Slack incoming webhook works); none: alerts are only logged. */
  webhookUrl?: string;
  /** The guard judges a window only with at least this many answers in it. */
  guardMinRequests: number;
  /** The guard alerts when more than this share of the window's answers failed. */
  guardFailureRatio: number;
  /** Settings that were invalid, each replaced by its default. */
  problems: InvalidSetting[];
}

/** What a shard needs to deliver effects. A bad value pauses delivery, not recording. */
export interface ShardSettings {
  apiUrl: string;
  responseUrlOrigins: string[];
  /** Attempts in all for a run whose handler throws its own error, before it is parked. */
  handlerMaxAttempts: number;
  /** Relay mode's settings, or null. */
  relay: RelaySettings | null;
  /** SLACK_PACING: Web API calls paced by Slack's published limits (src/pacing/), or only slowed by 429s. */
  pacing: boolean;
  /** SHARD_BUCKETS: where a workspace's rate-limit buckets live (one shard each, by hash). */
  shardBuckets: number;
  delivery: {
    timeoutMs: number;
    leaseMs: number;
    batchSize: number;
    concurrency: number;
    alarmBudgetMs: number;
    backoff: BackoffPolicy;
  };
}

/** OAuth (multi-workspace) mode: on when SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are both set. */
export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  /** Bot scopes asked for at install (SLACK_SCOPES), and user scopes (SLACK_USER_SCOPES). */
  scopes: string[];
  userScopes: string[];
  redirectUri?: string;
  successUrl?: string;
  allowNoState: boolean;
  authorizeUrl: string;
  /** Where oauth.v2.access is called: SLACK_API_URL. */
  apiUrl: string;
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

/** `on` or `off`; anything else is refused, named. */
function onOff(env: Vars, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "on") return true;
  if (raw === "off") return false;
  throw new InvalidSetting(name, `must be on or off, got ${JSON.stringify(raw)}`);
}

/** Like `positive`, but 0 is allowed (it switches something off). */
function nonNegative(env: Vars, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new InvalidSetting(name, `must be 0 or a positive integer, got ${JSON.stringify(raw)}`);
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

function list(vars: Vars, name: string): string[] {
  return (text(vars, name) ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function url(vars: Vars, name: string): string | undefined {
  const value = text(vars, name);
  if (value === undefined) return undefined;
  try {
    new URL(value);
  } catch {
    throw new InvalidSetting(name, `must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A 32-byte key, base64 (checked here so a bad key is a configuration error, not a failed install). */
function aesKey(vars: Vars, name: string, required: boolean): void {
  const value = text(vars, name);
  if (value === undefined) {
    if (required) throw new InvalidSetting(name, "is not set: OAuth mode never stores tokens unencrypted");
    return;
  }
  let bytes: number;
  try {
    bytes = atob(value.trim()).length;
  } catch {
    throw new InvalidSetting(name, "must be base64 (32 random bytes: `openssl rand -base64 32`)");
  }
  if (bytes !== 32) throw new InvalidSetting(name, `must be 32 bytes, base64; got ${bytes} bytes`);
}

/** The longest RELAY_SYNC_MS: the ack must leave before Slack's 3 seconds are up, network included. */
export const RELAY_SYNC_MS_MAX = 2_500;

function parseRelaySettings(vars: Vars): RelaySettings | null {
  const relayUrl = url(vars, "RELAY_URL");
  if (relayUrl === undefined) return null;
  const signingSecret = text(vars, "RELAY_SIGNING_SECRET") ?? text(vars, "SLACK_SIGNING_SECRET");
  if (signingSecret === undefined) throw new InvalidSetting("RELAY_SIGNING_SECRET", "is not set, nor SLACK_SIGNING_SECRET");
  const timeoutMs = positive(vars, "RELAY_TIMEOUT_MS", 60_000);
  if (timeoutMs > 300_000) throw new InvalidSetting("RELAY_TIMEOUT_MS", `must be at most 300000, got ${timeoutMs}`);
  const syncMs = nonNegative(vars, "RELAY_SYNC_MS", 2_000);
  if (syncMs > RELAY_SYNC_MS_MAX)
    throw new InvalidSetting("RELAY_SYNC_MS", `must be at most ${RELAY_SYNC_MS_MAX} (Slack waits 3 s), got ${syncMs}`);
  const webhookSecret = text(vars, "RELAY_WEBHOOK_SECRET");
  if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/]+=*$/.test(webhookSecret))
    throw new InvalidSetting("RELAY_WEBHOOK_SECRET", "must be a Standard Webhooks secret: whsec_ followed by base64");
  return {
    url: relayUrl,
    signingSecret,
    timeoutMs,
    syncMs,
    retryHours: positive(vars, "RELAY_RETRY_HOURS", 24, "number"),
    webhookSecret,
  };
}

function parseAlertSettings(vars: Vars): AlertSettings {
  const problems: InvalidSetting[] = [];
  const orDefault = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (problem) {
      if (!(problem instanceof InvalidSetting)) throw problem;
      problems.push(problem);
      return fallback;
    }
  };
  const guardFailureRatio = orDefault(() => {
    const ratio = positive(vars, "GUARD_FAILURE_RATIO", 0.5, "number");
    if (ratio >= 1) throw new InvalidSetting("GUARD_FAILURE_RATIO", `must be below 1 (Slack disables at 0.95), got ${ratio}`);
    return ratio;
  }, 0.5);
  return {
    webhookUrl: orDefault(() => url(vars, "ALERT_WEBHOOK_URL"), undefined),
    guardMinRequests: orDefault(() => positive(vars, "GUARD_MIN_REQUESTS", 20), 20),
    guardFailureRatio,
    problems,
  };
}

function parseOAuthSettings(vars: Vars): OAuthSettings | null {
  const clientId = text(vars, "SLACK_CLIENT_ID");
  const clientSecret = text(vars, "SLACK_CLIENT_SECRET");
  if (clientId === undefined && clientSecret === undefined) return null;
  if (clientId === undefined) throw new InvalidSetting("SLACK_CLIENT_ID", "is not set, but SLACK_CLIENT_SECRET is");
  if (clientSecret === undefined) throw new InvalidSetting("SLACK_CLIENT_SECRET", "is not set, but SLACK_CLIENT_ID is");
  aesKey(vars, "TOKEN_ENCRYPTION_KEY", true);
  aesKey(vars, "TOKEN_ENCRYPTION_KEY_PREVIOUS", false);
  const allowNoState = text(vars, "SLACK_OAUTH_ALLOW_NO_STATE") ?? "false";
  if (allowNoState !== "true" && allowNoState !== "false")
    throw new InvalidSetting("SLACK_OAUTH_ALLOW_NO_STATE", `must be true or false, got ${JSON.stringify(allowNoState)}`);
  return {
    clientId,
    clientSecret,
    scopes: list(vars, "SLACK_SCOPES"),
    userScopes: list(vars, "SLACK_USER_SCOPES"),
    redirectUri: url(vars, "SLACK_REDIRECT_URI"),
    successUrl: url(vars, "SLACK_INSTALL_SUCCESS_URL"),
    allowNoState: allowNoState === "true",
    authorizeUrl: url(vars, "SLACK_OAUTH_AUTHORIZE_URL") ?? "https://slack.com/oauth/v2/authorize",
    apiUrl: url(vars, "SLACK_API_URL") ?? "https://slack.com/api/",
  };
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
    relay: parseRelaySettings(vars),
    pacing: onOff(vars, "SLACK_PACING", true),
    shardBuckets: positive(vars, "SHARD_BUCKETS", 1),
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
/** Null unless RELAY_URL is set; throws InvalidSetting for a relay setting that cannot work. */
export const relaySettings = oncePerEnv(parseRelaySettings);
/** Never throws: invalid alert settings fall back to defaults, listed in `problems`. */
export const alertSettings = oncePerEnv(parseAlertSettings);
/** Null in single-workspace mode; throws InvalidSetting when OAuth mode is half configured. */
export const oauthSettings = oncePerEnv(parseOAuthSettings);
