import type { RunFailure, RunTools } from "../contract";
import { ERROR_HANDLER, type ErrorHandler, type ListenerContext, type ListenerSpec, runErrorHandler } from "../listeners";
import { withStreams } from "../streams";
import { AttemptEnding } from "./attemptEnding";
import { guardedTools } from "./guardedTools";
import { runArgsOf } from "./runArgs";

/** What one attempt performs: a listener's run, or `app.error`'s run for a run finally parked. */
export type Performed =
  | { listener: string; run: NonNullable<ListenerSpec["run"]> }
  | { failure: RunFailure; errorHandler: ErrorHandler | undefined };

/**
 * One attempt of a run, with its arguments (runArgs.ts) and, for a listener, its streams; what
 * ends the attempt — a wait, a sleep, the stop button, a failure the outbox retries — does so past
 * the code's own `try/catch`, its tools guarded by the attempt's ending (attemptEnding.ts).
 */
export async function performRun(tools: RunTools, matched: ListenerContext, performed: Performed): Promise<void> {
  const ending = new AttemptEnding();
  const guarded: RunTools = { ...tools, guarded: (own) => guardedTools(own, ending) };
  if ("failure" in performed) {
    const { errorHandler, failure } = performed;
    return ending.race(() => runErrorHandler(errorHandler, failure, runArgsOf(ERROR_HANDLER, matched, guarded)));
  }
  const { listener, run } = performed;
  await withStreams(matched.inbound, tools, (sayStream) =>
    ending.race(() => run(runArgsOf(listener, matched, guarded, sayStream), guarded)),
  );
}
