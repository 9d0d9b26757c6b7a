/**
 * Durable waits, the shard's side: the `waits` table (`waitStore.ts`), a recorded click on a
 * wait's question answering it or told it ended (`clickAnswers.ts`), a run's ledger of its waits
 * for its attempt (`waitLedger.ts`), composed as the part (`waitsPart.ts`). The app's side — the
 * `waitForAction` and `sleep` a run calls, the question's buttons and the block id a click is read
 * by — is the capability src/app/waits/: an app's run and the edge's routing use it before any shard.
 */
export { WaitStore } from "./waitStore";
export { Waits } from "./waitsPart";
