/**
 * Durable waits and timers: a run suspends itself — its attempt ends, holding no lease, isolate or
 * delivery slot — and goes on from the top later, its steps kept: `sleep` / `sleepUntil` at a time
 * (`sleeps.ts`), `waitForAction` when a person clicks one of its question's buttons or its timeout
 * passes (`waitForAction.ts`, the question's blocks in `questionBlocks.ts`, who may answer it in
 * `waitAnswerers.ts`). Clicks on a question
 * are the wait's, never the app's listeners' (`waitClicks.ts`); its buttons' block id names the
 * wait and its shard, and a click is read back by it (`waitButtons.ts`: routing reads it too). The
 * shard's part keeps the waits and answers the clicks (src/parts/waits/).
 */
export type { WaitButton, WaitQuestion } from "./questionBlocks";
export { type DurableTimers, durableTimers, sleepOfStep } from "./sleeps";
export type { WaitAnswerers } from "./waitAnswerers";
export { type WaitClick, waitBlockId, waitClickOf } from "./waitButtons";
export { WAIT_ENDED_TEXT, waitNotYoursText, withWaitClicks } from "./waitClicks";
export { type DurableWaits, durableWaits, type WaitOutcome } from "./waitForAction";
