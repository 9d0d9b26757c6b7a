import type { RunTools } from "../app/types";
import type { MeteredSql } from "./meteredSql";

/** Thrown when a step cannot be recorded because another attempt now holds the run's lease. */
export class LeaseLost extends Error {
  override name = "LeaseLost";
}

/** All SQL touching `steps`: checkpointed results of durable handlers' steps. */
export class Steps {
  constructor(private readonly sql: MeteredSql) {}

  recorded(outboxKey: string, name: string): { found: boolean; value?: unknown } {
    const [row] = this.sql.all<{ result: string }>("SELECT result FROM steps WHERE outbox_key = ? AND name = ?", outboxKey, name);
    return row ? { found: true, value: JSON.parse(row.result) } : { found: false };
  }

  /**
   * Stores a step's result, fenced by the run's lease: only an attempt that still holds
   * `token` may record. If an overlapping attempt recorded first, its result wins and is
   * returned, so both continue from the same checkpoint. Throws LeaseLost when fenced out.
   */
  record(outboxKey: string, name: string, token: string, value: unknown, now: number): unknown {
    const inserted = this.sql.count(
      `INSERT INTO steps (outbox_key, name, result, created_at)
       SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM outbox WHERE idempotency_key = ?1 AND claim_token = ?5)
       ON CONFLICT (outbox_key, name) DO NOTHING
       RETURNING 1`,
      outboxKey, name, JSON.stringify(value ?? null), now, token,
    );
    if (inserted === 1) return value ?? null;
    const prior = this.recorded(outboxKey, name);
    if (prior.found) return prior.value;
    throw new LeaseLost(`lease on ${outboxKey} was taken over before step "${name}" was recorded`);
  }

  /** The `step()` of one attempt of a run: checkpoints under its outbox row, fenced by its lease. */
  stepFor(outboxKey: string, token: string): RunTools["step"] {
    return async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
      const prior = this.recorded(outboxKey, name);
      if (prior.found) return prior.value as T;
      const value = await fn();
      // fn's awaits opened the input gate: another attempt may own the row by now.
      return this.record(outboxKey, name, token, value, Date.now()) as T;
    };
  }

  forget(outboxKey: string): void {
    this.sql.all("DELETE FROM steps WHERE outbox_key = ?", outboxKey);
  }
}
