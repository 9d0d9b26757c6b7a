import type { MeteredSql } from "../platform/sql/meteredSql";
import { ROW_BYTES_MAX, SqliteTooBig } from "../platform/sql/sqlLimits";

/** The bytes of a run's row once `?1` (a step's path) holds `?2` (its JSON): its payload and its checkpoints, the rest being small. */
const ROW_BYTES_WITH_STEP =
  "length(CAST(json_set(steps, ?1, json(?2)) AS BLOB)) + length(CAST(payload AS BLOB)) + coalesce(length(CAST(receipt_payload AS BLOB)), 0)";

/** Step results (JSON text) by step name that their attempt kept for a write it makes anyway. */
export type Checkpoints = ReadonlyMap<string, string>;
export const NO_CHECKPOINTS: Checkpoints = new Map();

/**
 * `steps` with `checkpoints` added — a step recorded already keeps its result (json_insert) — as a
 * fragment of a fenced UPDATE that settles a run anyway (a retry, a park, a stop, a postponement):
 * keeping them writes no row of its own. Its values are appended to `values`, the statement's
 * (numbered `?1`, `?2` … in that order).
 */
export function withCheckpoints(checkpoints: Checkpoints, values: unknown[]): string {
  if (checkpoints.size === 0) return "steps";
  const pairs = [...checkpoints].map(([name, result]) => {
    values.push(`$."${name}"`, result);
    return `?${values.length - 1}, json(?${values.length})`;
  });
  return `json_insert(steps, ${pairs.join(", ")})`;
}

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
   * `checkpoints` if the run's row can take them all within Cloudflare's 2 MB for a row (a read:
   * asked before a settle writes them), else none — their posts are then uncertain, and looked for.
   */
  fitting(key: string, checkpoints: Checkpoints): Checkpoints {
    if (checkpoints.size === 0) return checkpoints;
    const values: unknown[] = [key];
    const [row] = this.sql.all<{ bytes: number }>(
      `SELECT length(CAST(${withCheckpoints(checkpoints, values)} AS BLOB)) + length(CAST(payload AS BLOB)) + coalesce(length(CAST(receipt_payload AS BLOB)), 0) AS bytes
        FROM outbox WHERE idempotency_key = ?1`,
      ...values,
    );
    return row !== undefined && row.bytes <= ROW_BYTES_MAX ? checkpoints : NO_CHECKPOINTS;
  }

  /**
   * Stores a step's result (JSON text), fenced by the run's lease: only the attempt holding
   * `token` may record. If an overlapping attempt recorded the step first, that result wins
   * and is returned, so both continue from the same checkpoint. Undefined when fenced out.
   * A result that would take the row past Cloudflare's 2 MB is refused (SqliteTooBig), as
   * production's SQLite would refuse it, and nothing is written.
   */
  recordStep(key: string, name: string, token: string, result: string): string | undefined {
    const path = `$."${name}"`;
    const recorded = this.sql.count(
      `UPDATE outbox SET steps = json_set(steps, ?1, json(?2))
        WHERE idempotency_key = ?3 AND claim_token = ?4 AND steps -> ?1 IS NULL AND ${ROW_BYTES_WITH_STEP} <= ?5 RETURNING 1`,
      path,
      result,
      key,
      token,
      ROW_BYTES_MAX,
    );
    if (recorded === 1) return result;
    // Not written: recorded first by another attempt, fenced out, or too big — read only on this rare path.
    const [row] = this.sql.all<{ prior: string | null; bytes: number }>(
      `SELECT steps -> ?1 AS prior, ${ROW_BYTES_WITH_STEP} AS bytes FROM outbox WHERE idempotency_key = ?3 AND claim_token = ?4`,
      path,
      result,
      key,
      token,
    );
    if (row === undefined) return this.read(key, name);
    if (row.prior !== null) return row.prior;
    if (row.bytes > ROW_BYTES_MAX) throw new SqliteTooBig(row.bytes, `the run's row with step "${name}"`);
    return undefined;
  }
}
