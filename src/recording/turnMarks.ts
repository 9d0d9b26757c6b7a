/**
 * `next_attempt_at` of a turn written while its thread is held (migrations/0016_due_rows.sql): last
 * in the index of waiting rows, so no claim or wake-up reads past it; the end of the turn before
 * it claims it by its conversation (the turns index), or makes it due (outboxTurns.ts `release`).
 */
export const HELD_TURN_AT = 8_640_000_000_000_000;

/**
 * The term of `outbox_due`'s WHERE that keeps held turns out of it, as every statement reading the
 * index must spell it (SQLite uses a partial index only for a query whose WHERE has its terms).
 */
export const NOT_HELD = `next_attempt_at <> ${HELD_TURN_AT}`;

/**
 * `turn_after` of a turn recorded while its shard instance has not yet read back the leads of the
 * instance before it (outboxWalk.ts): it waits until the walk is complete and names the lead then.
 */
export const LEAD_UNKNOWN = "*";
