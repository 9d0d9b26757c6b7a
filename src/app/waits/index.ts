/**
 * Durable waits and timers: a run suspends itself — its attempt ends, holding no lease, isolate or
 * delivery slot — and goes on from the top later, its steps kept: `sleep` / `sleepUntil` at a time
 * (`sleeps.ts`), `waitForAction` when a person clicks one of its question's buttons or its timeout
 * passes (`waitForAction.ts`, the question's blocks in `questionBlocks.ts`, who may answer it in
 * `waitAnswerers.ts`). Clicks on a question
 * are the wait's, never the app's listeners' (`waitClicks.ts`); the shard answers them
 * (delivery/waitClicks.ts) and keeps the waits (recording/waits.ts).
 */
export type { WaitButton, WaitQuestion } from "./questionBlocks";
export { type DurableTimers, durableTimers, sleepOfStep } from "./sleeps";
export type { WaitAnswerers } from "./waitAnswerers";
export { WAIT_ENDED_TEXT, waitNotYoursText, withWaitClicks } from "./waitClicks";
export { type DurableWaits, durableWaits, type WaitOutcome } from "./waitForAction";
