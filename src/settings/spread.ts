import { InvalidSetting } from "../platform/errors";
import { lenient } from "./lenient";
import { oncePerEnv } from "./once";

/** The automatic spread's settings as the watch reads them (docs/guides/sharding.md "Automatic spread"). */
export interface SpreadSettings {
  automatic: boolean;
  /** Deliveries per second one shard carries. */
  shardRate: number;
  /** The busy share (0–1) at which a workspace spreads; quiet is below half of it. */
  busyShare: number;
  maxBuckets: number;
  coolDownMs: number;
  /** The edge's ack budget: an ack p90 at it is a shard fully busy. */
  ackBudgetMs: number;
  /** SHARD_BUCKETS: the count of a workspace without layouts (the watch does not read the edge's settings, which need the signing secret). */
  shardBuckets: number;
  /** Settings that were invalid, each replaced by its default. */
  problems: InvalidSetting[];
}

/** Never throws: as the alerts' settings, an invalid value falls back to its default, listed in `problems`. */
export const spreadSettings = oncePerEnv((vars): SpreadSettings => {
  const { orDefault, problems } = lenient(vars);
  return {
    automatic: orDefault("SPREAD_AUTOMATIC"),
    shardRate: orDefault("SPREAD_SHARD_RATE"),
    busyShare: orDefault("SPREAD_BUSY_SHARE", (share) => {
      if (share > 1) throw new InvalidSetting("SPREAD_BUSY_SHARE", `must be at most 1, got ${share}`);
    }),
    // Above MAX_BUCKETS (rpc/bucketLayouts.ts) the decision stops there: settings sit below rpc/.
    maxBuckets: orDefault("SPREAD_MAX_BUCKETS"),
    coolDownMs: orDefault("SPREAD_COOL_DOWN_MINUTES") * 60_000,
    ackBudgetMs: orDefault("ACK_BUDGET_MS"),
    shardBuckets: orDefault("SHARD_BUCKETS"),
    problems,
  };
});
