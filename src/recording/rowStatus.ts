/**
 * A row's status as the code reads it (migrations/0019_stopped_runs.sql): `pending`, `parked` (a
 * dead letter), or `stopped` — a run its user stopped, stored `parked` with `stopped_at` set, since
 * the table's CHECK allows no third value and changing it would rebuild the table.
 */
export const STATUS_OF = (row: string) => `CASE WHEN ${row}.stopped_at IS NULL THEN ${row}.status ELSE 'stopped' END`;

/** A parked row that is a dead letter (in `outbox_parked`), not a stopped run. */
export const DEAD_LETTER = "status = 'parked' AND stopped_at IS NULL";

/** A stopped run (in `outbox_stopped`). */
export const STOPPED = "status = 'parked' AND stopped_at IS NOT NULL";
