import type { MeteredSql } from "../platform/sql/meteredSql";
import { ROW_BYTES_MAX, utf8Bytes } from "../platform/sql/sqlLimits";
import type { OutboxStatus } from "../rpc/shard";
import { appendedStory } from "./outboxRows";
import { type Checkpoints, NO_CHECKPOINTS, withCheckpoints } from "./outboxSteps";
import { STATUS_OF } from "./rowStatus";
import { HELD_TURN_AT } from "./turnMarks";

/**
 * A delivered row's fenced completion (migrations/0026_done_rows.sql): the row becomes done — kept
 * with its story, `story` (the attempt's, JSON) appended, until its generation's table is dropped
 * (outboxFiling.ts) — only if `token` still holds its lease. One row written, as the DELETE of
 * before was. A done row keeps no lease, no turn and no burst, is due never and `pending` (not
 * stopped), so it is in no partial index and no claim, fence or count reads it (rowStatus.ts
 * PENDING); leaving `outbox_turns`, `outbox_stopped` or `outbox_open_merges` costs the index entry a
 * DELETE removed too. Its payload (the effect, a run's inbound with what people wrote) is not
 * kept: the delivery's receipt keeps it as EVENT_PAYLOADS says; its `effect`, `steps` (a run's
 * checkpoints) and story stay. Returns what the row was (pending, or stopped while its attempt ran), or null
 * when fenced out.
 */
export function completeRow(
  sql: MeteredSql,
  key: string,
  token: string,
  story: string | null,
  now: number,
  /** The step results its attempt kept (outboxSteps.ts), written by this UPDATE. */
  checkpoints: Checkpoints = NO_CHECKPOINTS,
): OutboxStatus | null {
  const values: unknown[] = [now, story, key, token];
  // Its payload emptied, the row keeps its story and checkpoints; kept results that would take its checkpoints
  // past 1 MB, or the row (with the receipt it carries) past 2 MB, are left out (their posts were made: only the
  // story's mention of them is lost). Checked here, in the UPDATE: no read of the row's size before it.
  const steps = withCheckpoints(checkpoints, values);
  // What they add at most (each `"name":result,`), counted here — the UPDATE evaluates no json_insert to size them —
  // and bound, not written into the SQL: its text stays one the runtime has prepared already.
  const added = [...checkpoints].reduce((n, [name, result]) => n + utf8Bytes(name) + utf8Bytes(result) + 4, 0);
  const bytes = () => `length(CAST(steps AS BLOB)) + ?${values.push(added)}`;
  const kept =
    steps === "steps"
      ? steps
      : `CASE WHEN ${bytes()} <= ${ROW_BYTES_MAX / 2} AND ${bytes()} + coalesce(length(CAST(receipt_payload AS BLOB)), 0) <= ${ROW_BYTES_MAX}
          THEN ${steps} ELSE steps END`;
  const complete = (held: string) =>
    sql.count(
      `UPDATE outbox SET done_at = ?1, status = 'pending', stopped_at = NULL, claim_token = NULL, claim_expires_at = NULL,
          next_attempt_at = ${HELD_TURN_AT}, turn = NULL, turn_seq = NULL, turn_after = NULL, turn_released = NULL,
          merge_open = NULL, payload = '{}', story = ${appendedStory("?2")}, steps = ${kept}
        WHERE idempotency_key = ?3 AND claim_token = ?4 AND done_at IS NULL${held} RETURNING 1`,
      ...values,
    ) === 1;
  // Held pending (no stop marked it meanwhile): what it was is known, one statement in all.
  if (complete(" AND stopped_at IS NULL AND status = 'pending'")) return "pending";
  // Else what it was, read first (RETURNING tells only what it became): stopped while its attempt ran, or fenced out.
  const [was] = sql.all<{ status: OutboxStatus }>(
    `SELECT ${STATUS_OF("outbox")} AS status FROM outbox WHERE idempotency_key = ? AND claim_token = ?`,
    key,
    token,
  );
  return was && complete("") ? was.status : null;
}
