import { RetryAfterMemory } from "../platform/retryAfter";
import { COMPLETION_WAIT_MS, Completions } from "./completions";
import type { Courier } from "./deliverClaimed";
import { failedNotices, retryNotices } from "./failureNotices";
import { LeaseRenewals } from "./leaseRenewals";
import { parkedStreamCloses, parkFollowUps } from "./parkFollowUps";
import { type CourierParts, rowPerformer } from "./performRow";

/** Wires what the delivery loop needs of a shard: its outbox, settings, events and how to perform a row. */
export function buildCourier(parts: CourierParts): Courier {
  const { shard, settings, outbox, events, wakeAt } = parts;
  // A relayed command's backend response reaches the edge only once its row is completed: no waiting there.
  const completions = new Completions(outbox, COMPLETION_WAIT_MS, (key) => parts.backendResponses?.wants(key) ?? false);
  return {
    shard,
    outbox,
    completions,
    leases: new LeaseRenewals(outbox, settings.delivery.leaseMs),
    events,
    wakeAt,
    turnEnded: parts.turnEnded,
    parts: parts.parts,
    delivery: settings.delivery,
    meters: parts.outbound.meters,
    retryAfters: new RetryAfterMemory(),
    // Step checkpoints and completions share commits.
    perform: rowPerformer(parts, { commits: completions, outbound: parts.outbound }),
    followUps: parkFollowUps(parts.app, failedNotices(parts.app, settings)),
    retrying: retryNotices(parts.app, settings),
    closes: parkedStreamCloses((key, name) => outbox.steps.read(key, name)),
  };
}
