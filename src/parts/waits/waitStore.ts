import type { WaitAnswer, WaitRecord } from "../../app/contract";
import { toBase64 } from "../../platform/base64";
import type { MeteredSql } from "../../platform/sql/meteredSql";
import type { RunWait } from "../../recording/effectMessageRows";
import { PENDING, pendingIn } from "../../recording/rowStatus";

/** Ended waits are kept this long past their deadline, then pruned (a click after that finds none: ended all the same). */
export const WAIT_KEEP_MS = 24 * 60 * 60 * 1000;

interface WaitRow extends Record<string, SqlStorageValue> {
  wait_id: string;
  state: string;
  answer: string | null;
  deadline: number;
}

/** Whether a click found its wait open and answered it, or why not. */
export type ClickVerdict =
  | { answered: true; runKey: string }
  | { answered: false; why: "unknown" | "ended" | "elsewhere"; channel?: string }
  | { answered: false; why: "not_yours"; answerers: string[] };

/**
 * All SQL touching `waits` (migrations/0013_waits.sql): a run's durable waits for a person —
 * opened once per run and name, their question's message, a click's answer, the run's reading of
 * it or its timeout — and their pruning.
 */
export class WaitStore {
  constructor(private readonly sql: MeteredSql) {}

  /**
   * Opens the run's wait `name` (once: later calls, a retried attempt's, get the same wait and keep
   * its first `answerers`): who may answer it, or null for anyone (migrations/0020_wait_answerers.sql).
   */
  open(
    runKey: string,
    name: string,
    wait: { channel: string; deadline: number; answerers: string[] | null },
    now: number,
  ): WaitRecord {
    this.sql.all(
      `INSERT INTO waits (wait_id, run_key, name, channel, deadline, answerers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (run_key, name) DO NOTHING`,
      randomWaitId(),
      runKey,
      name,
      wait.channel,
      wait.deadline,
      wait.answerers === null ? null : JSON.stringify(wait.answerers),
      now,
    );
    return recordOf(
      this.sql.one<WaitRow>("SELECT wait_id, state, answer, deadline FROM waits WHERE run_key = ? AND name = ?", runKey, name),
    );
  }

  /** The question's message, once posted: a click must come from it. */
  posted(waitId: string, messageTs: string): void {
    this.sql.all("UPDATE waits SET message_ts = ? WHERE wait_id = ? AND message_ts IS NULL", messageTs, waitId);
  }

  /** The run read the answer: its wait no longer wakes the run. */
  close(waitId: string): void {
    this.sql.all("UPDATE waits SET state = 'closed' WHERE wait_id = ? AND state = 'answered'", waitId);
  }

  /** The deadline passed with no answer: ended (false when a click answered it first). */
  timeOut(waitId: string, now: number): boolean {
    return (
      this.sql.count(
        "UPDATE waits SET state = 'timed_out' WHERE wait_id = ? AND state = 'open' AND deadline <= ? RETURNING 1",
        waitId,
        now,
      ) === 1
    );
  }

  /**
   * A click on a wait's question: answers it when the wait is open, before its deadline, its run
   * still waiting (pending: not parked, not done), the click comes from the wait's own question
   * (its channel and, once known, its message) and from one of its answerers. A click on any other
   * wait answers nothing; one by someone else leaves the wait open for its answerers.
   */
  answer(waitId: string, click: { channel?: string; messageTs?: string }, answer: WaitAnswer, now: number): ClickVerdict {
    const [wait] = this.sql.all<{
      run_key: string;
      channel: string;
      message_ts: string | null;
      answerers: string | null;
      open: number;
    }>(
      `SELECT w.run_key, w.channel, w.message_ts, w.answerers,
              (w.state = 'open' AND w.deadline > ? AND ${pendingIn("o")}) AS open
         FROM waits w LEFT JOIN outbox o ON o.idempotency_key = w.run_key
        WHERE w.wait_id = ?`,
      now,
      waitId,
    );
    if (!wait) return { answered: false, why: "unknown" };
    const fromQuestion = click.channel === wait.channel && (wait.message_ts === null || click.messageTs === wait.message_ts);
    if (!fromQuestion) return { answered: false, why: "elsewhere", channel: wait.channel };
    if (wait.open !== 1) return { answered: false, why: "ended", channel: wait.channel };
    const answerers = wait.answerers === null ? null : (JSON.parse(wait.answerers) as string[]);
    if (answerers && !(answer.user && answerers.includes(answer.user))) return { answered: false, why: "not_yours", answerers };
    this.sql.all("UPDATE waits SET state = 'answered', answer = ? WHERE wait_id = ?", JSON.stringify(answer), waitId);
    return { answered: true, runKey: wait.run_key };
  }

  /** Whether a click answered one of the run's waits and the run has not read it yet: it is due now. */
  answeredFor(runKey: string): boolean {
    return this.sql.all("SELECT 1 FROM waits WHERE run_key = ? AND state = 'answered' LIMIT 1", runKey).length > 0;
  }

  /** A suspended run (its outbox row) whose wait was answered is due now; a row in an attempt is left to its settle (delivery/postponements.ts). */
  wake(key: string, now: number): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET next_attempt_at = ?1 WHERE idempotency_key = ?2 AND ${PENDING}
          AND claim_token IS NULL AND next_attempt_at > ?1 RETURNING 1`,
        now,
        key,
      ) === 1
    );
  }

  /** A run's waits, oldest first (by the `(run_key, name)` index): what its story shows of them. */
  ofRun(runKey: string): RunWait[] {
    return this.sql
      .all<{
        name: string;
        channel: string;
        message_ts: string | null;
        deadline: number;
        state: string;
        answerers: string | null;
        created_at: number;
      }>(
        "SELECT name, channel, message_ts, deadline, state, answerers, created_at FROM waits WHERE run_key = ? ORDER BY created_at, name",
        runKey,
      )
      .map((row) => ({
        name: row.name,
        channel: row.channel,
        messageTs: row.message_ts,
        deadline: row.deadline,
        state: row.state as WaitRecord["state"],
        answerers: row.answerers === null ? null : (JSON.parse(row.answerers) as string[]),
        openedAt: row.created_at,
      }));
  }

  /** Deletes waits whose deadline is WAIT_KEEP_MS past; returns how many. */
  prune(now: number): number {
    return this.sql.count("DELETE FROM waits WHERE deadline < ? RETURNING 1", now - WAIT_KEEP_MS);
  }

  /** When the next wait can be pruned, or null. */
  nextPruneAt(): number | null {
    const { at } = this.sql.one<{ at: number | null }>("SELECT min(deadline) AS at FROM waits");
    return at === null ? null : at + WAIT_KEEP_MS;
  }
}

function recordOf(row: WaitRow): WaitRecord {
  return {
    waitId: row.wait_id,
    state: row.state as WaitRecord["state"],
    deadline: row.deadline,
    answer: row.answer === null ? undefined : (JSON.parse(row.answer) as WaitAnswer),
  };
}

/** 128 random bits, URL-safe: the wait's name in its buttons' block_id. */
function randomWaitId(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(16)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
