/**
 * A row's status as the code reads it: `pending`, `parked` (a dead letter), `stopped` — a run its
 * user stopped, stored `parked` with `stopped_at` set (migrations/0019_stopped_runs.sql) — or
 * `done`: delivered, kept with its story until its generation's table is dropped, stored `pending`
 * with `done_at` set (migrations/0026_done_rows.sql). The table's CHECK allows no third value and
 * changing it would rebuild the table.
 */
export const STATUS_OF = (row: string) =>
  `CASE WHEN ${row}.done_at IS NOT NULL THEN 'done' WHEN ${row}.stopped_at IS NULL THEN ${row}.status ELSE 'stopped' END`;

/** A row still waiting for (or in) an attempt: `status = 'pending'` alone also matches a done row. */
export const PENDING = "status = 'pending' AND done_at IS NULL";

/** PENDING for the row an alias names (`o`, `earlier`, …). */
export const pendingIn = (row: string) => `(${row}.status = 'pending' AND ${row}.done_at IS NULL)`;

/** A parked row that is a dead letter (in `outbox_parked`), not a stopped run. */
export const DEAD_LETTER = "status = 'parked' AND stopped_at IS NULL";

/** A stopped run (in `outbox_stopped`). */
export const STOPPED = "status = 'parked' AND stopped_at IS NOT NULL";
