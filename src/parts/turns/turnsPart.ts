import type { PlannedEffect } from "../../app/contract";
import type { Inbound } from "../../inbound/types";
import type { AdmittedTurns, IngestTurns } from "../../recording/ingest";
import type { PartWorld, ShardPart } from "../part";
import { admittedTurns } from "./admittedTurns";
import { SuspendedTurns } from "./suspendedTurns";
import { TurnBudgets } from "./turnBudgets";

/**
 * Turns, the shard's side: one turn at a time per conversation (`queue`, `interrupt`, `merge`,
 * `parallel`), under budgets. Its ingest side takes a delivery's turns in, in the ingest's
 * transaction (`admit`: admittedTurns.ts); its delivery side gives a suspended run's turn back and
 * takes it anew when it wakes (`suspended`: suspendedTurns.ts); its table, the budgets' counts
 * (turnBudgets.ts), is pruned by the alarm. Who holds a thread, and each thread's lead, are the
 * outbox's own columns and memory (recording/outboxTurns.ts): its claims, walk and enqueue spell them.
 */
export class Turns implements ShardPart, IngestTurns {
  /** Each user's and the workspace's turns this UTC minute and day (`limits`). */
  readonly budgets: TurnBudgets;
  /** An attempt's tool: a suspended run's turn given back, and taken anew when it wakes. */
  readonly suspended: SuspendedTurns;

  constructor(private readonly world: Pick<PartWorld, "outbox">) {
    const { outbox } = world;
    this.budgets = new TurnBudgets(outbox.sql);
    this.suspended = new SuspendedTurns(outbox.sql, outbox.memory, outbox.turns);
  }

  /** A first-recorded delivery's turns, in its ingest's transaction (recording/ingest.ts). */
  admit(inbound: Inbound, firsts: PlannedEffect[], now: number): AdmittedTurns {
    return admittedTurns(this.world.outbox, this.budgets, inbound, firsts, now);
  }

  /** The alarm's part, once an hour at most: budgets' rows of a UTC day that is over go. */
  prune(now: number): void {
    this.budgets.prune(now);
  }
}
