/**
 * What a lease's token says of its attempt (docs/reference/delivery.md "Uncertain posts"): a row
 * written for an immediate attempt that must wait in the shard's line (more than 64 in flight)
 * is leased to a `queued:` token, and handed over to a token of its own when its attempt starts
 * (one row written, for rows that waited only). So a take-over knows an attempt that never began,
 * and never posted: its row is not made uncertain. Every other lease is an attempt that began.
 */
const QUEUED = "queued:";

/** A token for rows that wait in line before their attempt. */
export function queuedToken(): string {
  return `${QUEUED}${crypto.randomUUID()}`;
}

/** Whether `token` leases rows still waiting in line: their attempt has not begun. */
export function isQueued(token: string): boolean {
  return token.startsWith(QUEUED);
}

/** SQL: whether the lease on `row` (its `claim_token`) is one whose attempt began, so may have posted. */
export function attemptBegan(row: string): string {
  return `(${row}.claim_token IS NOT NULL AND substr(${row}.claim_token, 1, ${QUEUED.length}) <> '${QUEUED}')`;
}
