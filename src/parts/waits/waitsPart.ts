import type { WaitLedger } from "../../app/contract";
import type { Inbound } from "../../inbound/types";
import type { SpanAttributes } from "../../platform/spans";
import type { PartWorld, ShardPart } from "../part";
import { ClickAnswers } from "./clickAnswers";
import { waitLedgerFor } from "./waitLedger";
import { WaitStore } from "./waitStore";

/**
 * Durable waits for a person (`waitForAction`), the shard's side: its `waits` table (waitStore.ts),
 * a recorded click answering its wait (clickAnswers.ts), a run's ledger of its waits
 * (waitLedger.ts), and waits a day past their deadline pruned by the alarm.
 */
export class Waits implements ShardPart {
  readonly store: WaitStore;
  private readonly clicks: ClickAnswers;

  constructor(private readonly world: PartWorld) {
    this.store = new WaitStore(world.outbox.sql);
    this.clicks = new ClickAnswers(this.store, world.outbox, world.shard, world.wakeAt);
  }

  /** A click on a wait's question answers its wait, or is told it ended. */
  recorded(inbound: Inbound, now: number): void {
    this.clicks.recorded(inbound, now);
  }

  wakeAt(): number | null {
    return this.store.nextPruneAt();
  }

  prune(now: number): void {
    this.store.prune(now);
  }

  /** An attempt's tool: the waits of the run `key` (`waitForAction`). */
  ledgerFor(key: string, traced: SpanAttributes = {}): WaitLedger {
    return waitLedgerFor(this.store, key, this.world.shard, traced);
  }

  /** Whether a click answered one of the run's waits and the run has not read it yet: it is due now. */
  answeredFor(runKey: string): boolean {
    return this.store.answeredFor(runKey);
  }
}
