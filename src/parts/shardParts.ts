import type { Inbound } from "../inbound/types";
import type { CoordinatorEnv } from "../rpc/env";
import { type DeliverySettings, recordSettings } from "../settings";
import type { PartSettings, PartWorld, ShardPart } from "./part";
import { UncertainPosts } from "./posts";
import { Stops } from "./stops";
import type { ThreadContexts } from "./threadContexts";
import { Turns } from "./turns";
import { Waits } from "./waits";

/**
 * Every part of a shard's engine this build composes, by name: a new part is its folder and one
 * line here. The shard's hubs — its ingest, its alarm, its wake sources — call each in this order.
 */
const PARTS = {
  stops: ({ outbox, shard, wakeAt, turnsMayGo }: PartWorld) => new Stops(outbox, shard, wakeAt, turnsMayGo),
  waits: (world: PartWorld) => new Waits(world),
  posts: (world: PartWorld) => new UncertainPosts(world),
  turns: (world: PartWorld) => new Turns(world),
} satisfies Record<string, (world: PartWorld) => ShardPart>;

/**
 * The parts only some roles keep, built by the role from the same world and handed to its delivery
 * loop (DeliveryLoopInputs.roleParts): a workspace shard's thread contexts. A loop given none (the
 * watch's, a test's bare loop) has none.
 */
export interface RoleParts {
  readonly threadContexts?: ThreadContexts;
}

/** The parts by name: what one attempt takes of them (a stop's signal, its run's waits) is named. */
export type Parts = { readonly [Name in keyof typeof PARTS]: ReturnType<(typeof PARTS)[Name]> } & RoleParts;

/** A shard's parts, built once, and what the hubs ask of all of them. */
export interface ShardParts extends Parts {
  /** A delivery was recorded (accepted), in its ingest's turn: each part's ingest side (ShardPart.recorded). */
  recorded(inbound: Inbound, now: number, interrupted: readonly string[]): void;
  /** The earliest time a part wants the alarm for its own work; null for none. */
  wakeAt(now: number): number | null;
  /** The alarm's part: each part prunes what it keeps past its time. */
  prune(now: number): void;
  /** The workspace's installation is gone: each part drops what it keeps of it (ShardPart.installationGone). */
  installationGone(workspace: string): void;
}

/** Builds every part of `PARTS` from `world`, then the role's own (`roleParts`, built already): called in that order. */
export function shardParts(world: PartWorld, roleParts: RoleParts = {}): ShardParts {
  const built = Object.fromEntries(Object.entries(PARTS).map(([name, build]) => [name, build(world)]));
  const named = { ...built, ...roleParts } as Parts;
  const all: readonly ShardPart[] = Object.values(named).filter((part) => part !== undefined);
  return {
    ...named,
    recorded(inbound, now, interrupted) {
      for (const part of all) part.recorded?.(inbound, now, interrupted);
    },
    wakeAt(now) {
      const times = all.map((part) => part.wakeAt?.(now) ?? null).filter((at) => at !== null);
      return times.length === 0 ? null : Math.min(...times);
    },
    prune(now) {
      for (const part of all) part.prune?.(now);
    },
    installationGone(workspace) {
      for (const part of all) part.installationGone?.(workspace);
    },
  };
}

/** The parts' settings: the delivery side's as the loop parsed them (null: invalid), the ingest side's as they are read. */
export function partSettings(env: CoordinatorEnv, delivery: DeliverySettings | null): PartSettings {
  return {
    // Read when a part asks (parsed once per env): a watch, which records nothing, never fails on them.
    get record() {
      return recordSettings(env);
    },
    delivery,
  };
}
