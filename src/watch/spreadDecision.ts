import { type BucketLayout, type LayoutReason, MAX_BUCKETS } from "../rpc/bucketLayouts";
import type { ShardLoad } from "../rpc/watch";
import type { SpreadSettings } from "../settings";

/**
 * The automatic spread's rules, as plain functions of figures (docs/guides/sharding.md "Automatic
 * spread"): the watch calls them on its alarm with the layouts bucket 0 keeps and the figures its
 * registry holds; tests call them with figures.
 */

type Settings = Pick<SpreadSettings, "shardRate" | "busyShare" | "maxBuckets" | "coolDownMs" | "ackBudgetMs">;

/** Ingests in a minute below which the ack p90 says nothing of the shard (a cold start's one slow ack). */
export const ACK_SIGNAL_MIN_INGESTS = 60;

/**
 * How busy a shard was in a minute, as a share of what it carries: its ingests per second over
 * SPREAD_SHARD_RATE, or — when it had at least ACK_SIGNAL_MIN_INGESTS — its ack p90 over the ack
 * budget, whichever is higher. A Durable Object cannot time its own work (its clock stands still
 * while code runs), but its acks, timed from the edge, wait behind that work: a shard whose
 * handlers cost more than the rate assumes shows it as acks that queue.
 */
export function busyShare(load: ShardLoad, settings: Pick<Settings, "shardRate" | "ackBudgetMs">): number {
  const byRate = load.ingests / (settings.shardRate * 60);
  const byAcks = load.ingests >= ACK_SIGNAL_MIN_INGESTS && load.ackP90Ms !== null ? load.ackP90Ms / settings.ackBudgetMs : 0;
  return Math.max(byRate, byAcks);
}

/** What the registry holds of one shard of the workspace. */
export interface ShardFigures {
  /** Its last reported busy share and that minute (minutes since the epoch); null: none. */
  busyShare: number | null;
  busyMinute: number | null;
  /** When it last reported a share of at least half of SPREAD_BUSY_SHARE; null: never. */
  warmAt: number | null;
}

export interface SpreadInput {
  /** The workspace's layouts, oldest first (none: SHARD_BUCKETS in force since always). */
  layouts: readonly BucketLayout[];
  shardBuckets: number;
  shards: readonly ShardFigures[];
  settings: Settings;
  now: number;
}

export interface SpreadChange {
  buckets: number;
  reason: Exclude<LayoutReason, "manual">;
  /** The busiest fresh share seen (0 when none reported since the latest layout). */
  busy: number;
  /** The `effectiveAt` of the latest layout the decision saw (LayoutChange.latestAt). */
  latestAt: number;
}

/** The latest layout (one still to come included), or SHARD_BUCKETS' own. */
function latestOf({ layouts, shardBuckets }: SpreadInput): BucketLayout {
  return layouts.at(-1) ?? { buckets: shardBuckets, effectiveAt: 0, mixed: false, routing: "message", reason: "manual" };
}

/** The count a manual change set last (SHARD_BUCKETS without one): the automatic spread never goes below it. */
export function floorOf({ layouts, shardBuckets }: Pick<SpreadInput, "layouts" | "shardBuckets">): number {
  const manual = layouts.filter((layout) => (layout.reason ?? "manual") === "manual").at(-1);
  return manual?.buckets ?? shardBuckets;
}

/** The busiest share reported for a minute that began once the latest layout was in force and ended at most two minutes ago. */
function hottest(input: SpreadInput, latest: BucketLayout): number | null {
  const fresh = input.shards.filter(
    (shard) =>
      shard.busyShare !== null &&
      shard.busyMinute !== null &&
      shard.busyMinute * 60_000 >= latest.effectiveAt &&
      (shard.busyMinute + 1) * 60_000 >= input.now - 2 * 60_000,
  );
  return fresh.length === 0 ? null : Math.max(...fresh.map((shard) => shard.busyShare!));
}

/** The last time any shard of the workspace was warm (at least half of SPREAD_BUSY_SHARE), or null. */
const lastWarm = (input: SpreadInput): number | null =>
  input.shards.reduce<number | null>((last, shard) => (shard.warmAt === null ? last : Math.max(last ?? 0, shard.warmAt)), null);

/**
 * How long past the cool-down a shard whose latest report was warm must stay silent before it
 * counts as quiet. A shard reports a minute once it has ended, so a warm shard's next report comes
 * a minute or more after its last; one too busy to report comes later still. Silence that short is
 * not quiet — without this, a check that runs just before the next report halves a hot workspace.
 */
export const REPORT_SLACK_MS = 2 * 60_000;

/** Whether every shard has been quiet for the cool-down: a silent shard whose latest report was warm, for REPORT_SLACK_MS more. */
function cooled(input: SpreadInput): boolean {
  const { settings, now } = input;
  const half = settings.busyShare / 2;
  return input.shards.every((shard) => {
    if (shard.warmAt === null) return true;
    const silentWhileWarm = shard.busyShare !== null && shard.busyShare >= half;
    return shard.warmAt <= now - settings.coolDownMs - (silentWhileWarm ? REPORT_SLACK_MS : 0);
  });
}

/**
 * Whether to change the workspace's count now, and to what. Nothing within the cool-down of the
 * latest layout's taking effect (a rise's figures must come from the new count). A rise doubles,
 * up to SPREAD_MAX_BUCKETS, when a shard's fresh busy share reaches SPREAD_BUSY_SHARE. A fall
 * halves, never below the manual floor, once every shard has been below half of it for the
 * cool-down (a shard silent since a warm report, REPORT_SLACK_MS longer) — so the halved count
 * puts each shard below the trigger: no flapping.
 */
export function decideSpread(input: SpreadInput): SpreadChange | null {
  const { settings, now } = input;
  const latest = latestOf(input);
  if (now < latest.effectiveAt + settings.coolDownMs) return null;
  const busy = hottest(input, latest);
  const max = Math.min(settings.maxBuckets, MAX_BUCKETS);
  const latestAt = latest.effectiveAt;
  if (busy !== null && busy >= settings.busyShare) {
    const buckets = Math.min(max, latest.buckets * 2);
    return buckets > latest.buckets ? { buckets, reason: "busy", busy, latestAt } : null;
  }
  const floor = floorOf(input);
  if (latest.buckets > floor && cooled(input))
    return { buckets: Math.max(floor, Math.floor(latest.buckets / 2)), reason: "quiet", busy: busy ?? 0, latestAt };
  return null;
}

/**
 * When the watch should look at the workspace again (after deciding, with the layouts as they now
 * are), or null: no longer watched. Spread above its floor: when a fall could first be due.
 * Busy but held by the cool-down: at its end. Else a busy report will bring it back.
 */
export function nextCheckAt(input: SpreadInput): number | null {
  const { settings, now } = input;
  const latest = latestOf(input);
  const coolEnd = latest.effectiveAt + settings.coolDownMs;
  const next = (at: number) => Math.max(at, now + 60_000);
  if (latest.buckets > floorOf(input)) return next(Math.max(coolEnd, (lastWarm(input) ?? 0) + settings.coolDownMs));
  const busy = hottest(input, latest);
  if (busy !== null && busy >= settings.busyShare && latest.buckets < Math.min(settings.maxBuckets, MAX_BUCKETS))
    return next(coolEnd);
  return null;
}
