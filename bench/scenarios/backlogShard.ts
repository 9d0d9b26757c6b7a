import { ADMIN_TOKEN } from "../subjects";
import type { SeedBatch } from "../workers/backlogSql";

/** A shard's stats as the operations API reports them (GET /admin/shards/{workspace}/0). */
export interface BacklogStats {
  outbox: { pending: number; parked: number };
  counters: { accepted: number; rowsWritten: number; alarmsSet: number; [name: string]: number };
}

/** Rows per seeding statement: a few hundred MB of payload at most in one transaction. */
const SEED_BATCH_ROWS = 50_000;

/**
 * One shard of the backlog subject (bench/workers/backlogCoordinator.ts), driven over loopback:
 * its bench-only RPCs through `/bench/backlog/*`, its stats through the operations API.
 */
export class BacklogShard {
  constructor(
    private readonly base: URL,
    readonly workspace: string,
  ) {}

  /**
   * Seeds rows `from`..`from + count - 1` in batches (backlogSql.ts): mixed as an outage leaves
   * them, or all waiting. Returns the rows SQLite wrote (index entries included).
   */
  async seed(
    options: Pick<SeedBatch, "from" | "count" | "leasedMax" | "dueFrom" | "leaseUntil" | "mixed">,
    onBatch?: (done: number) => void,
  ): Promise<number> {
    let written = 0;
    const now = Date.now();
    for (let done = 0; done < options.count; done += SEED_BATCH_ROWS) {
      const count = Math.min(SEED_BATCH_ROWS, options.count - done);
      const answer = await this.call<{ rowsWritten: number }>("seed", { ...options, from: options.from + done, count, now });
      written += answer.rowsWritten;
      onBatch?.(done + count);
    }
    return written;
  }

  /** The first `limit` waiting rows made due now; how many were. */
  async makeDue(limit: number): Promise<number> {
    return (await this.call<{ due: number }>("due", { limit })).due;
  }

  /** The shard's alarm handler run `rounds` times, `dueEach` rows made due before each; rows made due in all. */
  async alarms(rounds: number, dueEach: number): Promise<number> {
    return (await this.call<{ due: number }>("alarms", { rounds, dueEach })).due;
  }

  /** The runtime's alarm set for now: the shard's own alarms take over from there. */
  async wake(): Promise<void> {
    await this.call("wake", {});
  }

  async stats(): Promise<BacklogStats> {
    const response = await fetch(new URL(`/admin/shards/${this.workspace}/0`, this.base), {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    if (!response.ok) throw new Error(`admin API answered ${response.status}`);
    return (await response.json()) as BacklogStats;
  }

  private async call<T>(op: string, body: Record<string, unknown>): Promise<T> {
    const response = await fetch(new URL(`/bench/backlog/${op}`, this.base), {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ workspace: this.workspace, ...body }),
    });
    if (!response.ok) throw new Error(`bench ${op} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return (await response.json()) as T;
  }
}
