import { expect } from "vitest";
import type { Inbound } from "../../src/inbound/types";
import type { WorkspaceShard } from "../../src/shard/workspaceShard";

/** The type of the next settle of any row of the shard (the immediate attempt after an ingest settles on its own). */
export function settled(shard: WorkspaceShard): Promise<string> {
  return new Promise<string>((resolve) => shard.delivery.events.subscribe((event) => resolve(event.type)));
}

/** Ingests `inbound` and lets its run's first attempt suspend itself (a sleep, a wait): settled as postponed. */
export async function suspendedOn(shard: WorkspaceShard, inbound: Inbound): Promise<void> {
  const first = settled(shard);
  await shard.recording.ingest(inbound);
  expect(await first).toBe("postponed");
}
