/** Settings read from wrangler vars / secrets. Each one is documented in README.md ("Settings"). */
export interface Settings {
  signingSecrets: string[];
  ackBudgetMs: number;
  shardBuckets: number;
  receiptRetentionMs: number;
}

export class InvalidSetting extends Error {
  override name = "InvalidSetting";
}

function positiveInteger(env: Record<string, unknown>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new InvalidSetting(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

function secret(env: Record<string, unknown>, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function readSettings(env: object): Settings {
  const vars = env as Record<string, unknown>;
  const current = secret(vars, "SLACK_SIGNING_SECRET");
  const previous = secret(vars, "SLACK_SIGNING_SECRET_PREVIOUS");
  return {
    signingSecrets: [current, previous].filter((s): s is string => s !== undefined),
    ackBudgetMs: positiveInteger(vars, "ACK_BUDGET_MS", 2000),
    shardBuckets: positiveInteger(vars, "SHARD_BUCKETS", 1),
    receiptRetentionMs: positiveInteger(vars, "RECEIPT_RETENTION_HOURS", 24) * 3_600_000,
  };
}
