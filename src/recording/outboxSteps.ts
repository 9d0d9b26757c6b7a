import type { MeteredSql } from "../platform/sql/meteredSql";

/**
 * The SQL of `outbox.steps`: a run's checkpoints on its own row, by name — its `step()` results,
 * and its streams' checkpoints (`stream #n`, written by the outbox's `recordStreamCheckpoint`,
 * which extends the run's lease as it writes).
 */
export class OutboxSteps {
  constructor(private readonly sql: MeteredSql) {}

  /** A checkpoint (JSON text) on a run's row — a completed step's result, a stream's checkpoint — or undefined. */
  read(key: string, name: string): string | undefined {
    const [row] = this.sql.all<{ result: string | null }>(
      "SELECT steps -> ? AS result FROM outbox WHERE idempotency_key = ?",
      `$."${name}"`,
      key,
    );
    return row?.result ?? undefined;
  }

  /**
   * Stores a step's result (JSON text), fenced by the run's lease: only the attempt holding
   * `token` may record. If an overlapping attempt recorded the step first, that result wins
   * and is returned, so both continue from the same checkpoint. Undefined when fenced out.
   */
  recordStep(key: string, name: string, token: string, result: string): string | undefined {
    const path = `$."${name}"`;
    const recorded = this.sql.count(
      `UPDATE outbox SET steps = json_set(steps, ?1, json(?2))
        WHERE idempotency_key = ?3 AND claim_token = ?4 AND steps -> ?1 IS NULL RETURNING 1`,
      path,
      result,
      key,
      token,
    );
    return recorded === 1 ? result : this.read(key, name);
  }
}
