import type { Subject } from "../subjects";
import type { BenchContext } from "./benchContext";
import { interleavedRuns, medianOf, type RunOptions, ratioOf } from "./interleaved";
import type { RunResult } from "./runAtRate";

/**
 * Relay mode beside the embedded example, same load, runs interleaved: the relay subject records
 * each mention and forwards it to the fake's /relay (answered 200 at once); the embedded one runs
 * the example app's listener, which replies in the thread.
 */
export interface RelayOverhead {
  rate: number;
  durationS: number;
  rounds: number;
  embedded: RunResult[];
  relay: RunResult[];
  /** Medians over the rounds. */
  ackP50: { embedded: number | null; relay: number | null };
  ackP99: { embedded: number | null; relay: number | null };
  /** Relay's median ack p99 over the embedded example's. */
  p99Ratio: number | null;
  /** Runtime CPU per offered event, ms. */
  cpuMsPerEvent: { embedded: number | null; relay: number | null };
  /** From the ack to the reply (embedded) or to the relayed request reaching the backend (relay), p99, ms. */
  deliveryP99: { embedded: number | null; relay: number | null };
}

export async function compareRelay(
  context: BenchContext,
  embedded: Subject,
  relay: Subject,
  options: RunOptions,
): Promise<RelayOverhead> {
  const pair = await interleavedRuns(context, embedded, relay, options);
  const both = (pick: (run: RunResult) => number | null | undefined) => ({
    embedded: medianOf(pair.a, pick),
    relay: medianOf(pair.b, pick),
  });
  const ackP99 = both((r) => r.ack.p99);
  return {
    rate: options.rate,
    durationS: options.durationMs / 1000,
    rounds: options.rounds,
    embedded: pair.a,
    relay: pair.b,
    ackP50: both((r) => r.ack.p50),
    ackP99,
    p99Ratio: ratioOf(ackP99.relay, ackP99.embedded),
    cpuMsPerEvent: both((r) => r.runtimeCpuMsPerEvent),
    deliveryP99: both((r) => r.delivery?.p99),
  };
}
