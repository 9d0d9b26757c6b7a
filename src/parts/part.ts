import type { Inbound } from "../inbound/types";
import type { Outbox } from "../recording/outbox";
import type { DeliverySettings, RecordSettings } from "../settings";

/** The shard's settings as its parts read them: parsed once per isolate (src/settings/), never the raw env. */
export interface PartSettings {
  /**
   * Its ingest side's (`recordSettings`): a bad one throws InvalidSetting as it is read, and the shard
   * records nothing (the edge answers 503, Slack retries), as with RECEIPT_RETENTION_HOURS.
   */
  readonly record: RecordSettings;
  /** Its delivery side's: null while a delivery setting is invalid (delivery is paused, its rows wait: deliveryLoop.ts). */
  readonly delivery: DeliverySettings | null;
}

/** What a shard hands each of its parts as it builds them, once (the delivery loop does). */
export interface PartWorld {
  shard: string;
  /** The shard's outbox; its SQL (`outbox.sql`) holds the part's own tables too (migrations/). */
  outbox: Outbox;
  /** Moves the shard's alarm earlier. */
  wakeAt(at: number): void;
  /** A conversation's turns held behind others may begin (the delivery loop claims them). */
  turnsMayGo(conversation: string): void;
  /** The settings a part reads (a new one: docs/contributing.md "A new setting"). */
  settings: PartSettings;
}

/**
 * What the shard's hubs call on every part, each hook only if the part has it: a part says none it
 * does not use.
 */
interface PartHooks {
  /**
   * A delivery was recorded (accepted), in the turn of its ingest: with no await in between, the
   * part's writes share the ingest's commit. `interrupted`: the runs its turn's ingest stopped.
   */
  recorded?(inbound: Inbound, now: number, interrupted: readonly string[]): void;
  /** When the alarm should come for this part's own work (its pruning); null for never. */
  wakeAt?(now: number): number | null;
  /** The alarm's part: what the part keeps past its time goes. */
  prune?(now: number): void;
  /** The workspace's installation is gone (uninstalled, tokens revoked): what the part keeps of it goes. */
  installationGone?(workspace: string): void;
}

/**
 * A part of a shard's engine: one feature's storage, its ingest side and its delivery side, in a
 * folder of src/parts/ entered by its `index.ts`, listed once in `shardParts.ts`. The shard's hubs
 * call its hooks (`PartHooks`) for every part; what a part gives one attempt (its tools) it exports
 * by name. Any object with the hooks it has typed as they are: `& object` lets a part that has
 * none (uncertain posts) be one — a type of optional members alone refuses what shares none of them.
 */
export type ShardPart = PartHooks & object;
