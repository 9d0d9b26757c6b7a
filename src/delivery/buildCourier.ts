import type { SlackApp } from "../app/contract";
import { RetryAfterMemory } from "../platform/retryAfter";
import type { BackendResponses } from "../relay/backendResponses";
import { COMPLETION_WAIT_MS, Completions } from "./completions";
import type { Courier } from "./courier";
import { failedNotices, retryNotices } from "./failureNotices";
import { LeaseRenewals } from "./leaseRenewals";
import { parkedStreamCloses, parkFollowUps } from "./parkFollowUps";
import { performRow } from "./performRow";

/** What a shard hands over to build its courier; the rest is made here, once. */
export type CourierInputs = Omit<Courier, Made> & {
  /** The app whose `parked` plans a parked run's follow-ups (parkFollowUps.ts). */
  app?: SlackApp;
  /** Relay mode: the first attempts whose backend response an edge waits for. */
  backendResponses?: BackendResponses;
};

type Made = "delivery" | "completions" | "leases" | "retryAfters" | "followUps" | "retrying" | "closes" | "meters" | "perform";

/** Builds a shard's courier from what the shard hands over. */
export function buildCourier(inputs: CourierInputs): Courier {
  const { app, settings, outbox, outbound, backendResponses } = inputs;
  // A relayed command's backend response reaches the edge only once its row is completed: no waiting there.
  const completions = new Completions(outbox, COMPLETION_WAIT_MS, (key) => backendResponses?.wants(key) ?? false);
  const courier: Courier = {
    shard: inputs.shard,
    outbox,
    settings,
    delivery: settings.delivery,
    events: inputs.events,
    wakeAt: inputs.wakeAt,
    turnEnded: inputs.turnEnded,
    completions,
    leases: new LeaseRenewals(outbox, settings.delivery.leaseMs),
    retryAfters: new RetryAfterMemory(),
    followUps: parkFollowUps(app, failedNotices(app, settings)),
    retrying: retryNotices(app, settings),
    closes: parkedStreamCloses((key, name) => outbox.steps.read(key, name)),
    kinds: inputs.kinds,
    authorize: inputs.authorize,
    env: inputs.env,
    outbound,
    meters: outbound.meters,
    pacing: inputs.pacing,
    parts: inputs.parts,
    observe: inputs.observe,
    perform: (effect, row, token, report, meter) => performRow(courier, effect, row, token, report, meter),
  };
  return courier;
}
