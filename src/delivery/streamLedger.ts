import type { StreamLedger } from "../app/contract";
import { LeaseLost } from "../platform/errors";
import type { Outbox } from "../recording/outbox";

/**
 * The stream checkpoints of one attempt of a run, on its outbox row next to its steps. Each
 * write is fenced by the attempt's lease and extends it by LEASE_MS: a streamed reply can
 * last minutes, and while it keeps flushing no other attempt may take the run over.
 */
export function streamLedgerFor(
  outbox: Outbox,
  key: string,
  token: string,
  leaseMs: number,
  afterWrite?: () => void,
): StreamLedger {
  return {
    read: (name) => outbox.steps.read(key, name),
    write(name, json) {
      // The flush before this write opened the input gate: another attempt may own the row by now.
      const held = outbox.recordStreamCheckpoint(key, name, token, json, Date.now() + leaseMs);
      afterWrite?.();
      if (!held) throw new LeaseLost(`lease on ${key} was taken over before ${name} was checkpointed`);
    },
  };
}
