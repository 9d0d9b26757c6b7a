import type { ClaimedRow } from "../../src/recording/outbox";

/** A row as ingest or a claim hands it to an attempt; only its key matters to the tests that make one. */
export const claimedRow = (key: string): ClaimedRow => ({
  idempotency_key: key,
  workspace: "T1",
  payload: "{}",
  rate_key: null,
  attempts: 0,
  created_at: 0,
});
