/**
 * Turns, the shard's side: a run answering a message in a conversation takes its turn there, one at
 * a time by default. Here the feature's own pieces — a delivery's turns taken in by its ingest
 * (`admittedTurns.ts`): a `merge` turn's burst (`mergedTurns.ts`), the budgets (`turnBudgets.ts`,
 * the `turn_budgets` table) judged (`budgetedTurns.ts`) and a refused turn's answer
 * (`turnRefusals.ts`), its place and its interrupts; a suspended run's turn given back and taken
 * anew (`suspendedTurns.ts`) — composed as the part (`turnsPart.ts`). Who holds a thread
 * (`holdsThread`), the places and leads are the outbox's columns, spelt by its claims and its walk:
 * recording/outboxTurns.ts, below every part. A turn's policy is planned by the app (`turns`, `limits`).
 */
export { BURST_MESSAGES_MAX, BURST_PAYLOAD_MAX } from "./mergedTurns";
export { Turns } from "./turnsPart";
