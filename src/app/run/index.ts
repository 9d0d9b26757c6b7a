/**
 * A listener's run: the registered listener a `run` effect names (`registeredRun.ts`), the one
 * factory of its arguments (`runArgsOf`: Bolt's helpers, `say`, `respond`, `context`, `logger`, `sayStream`, `complete` / `fail`, the client with Bolt 5's
 * `chatStream` in `chatStream.ts`; `sleep` and `waitForAction` from waits/) and its controls (the thread's
 * status kept alive, its agent session, the stop button's `signal`) around each attempt; and an
 * options load's listener that reads before it acks, run at the edge with Bolt's arguments (`optionsLoad.ts`);
 * what ends an attempt where the run's code cannot catch it (`attemptEnding.ts`, `guardedTools.ts`); a merged burst's `messages` (`burstMessages.ts`).
 */

export { AttemptEnding, endsTheAttempt } from "./attemptEnding";
export { withMessages } from "./burstMessages";
export { guardedTools } from "./guardedTools";
export { loadOptionsWith } from "./optionsLoad";
export { type Performed, performRun } from "./performRun";
export { runRegistered } from "./registeredRun";
export { runArgsOf } from "./runArgs";
export { withRunControls } from "./runControls";
