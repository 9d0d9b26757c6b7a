import { functionCompletion } from "./functionCompletion";
import type { ListenerContext, RunArgs } from "./listeners";
import { ackInRun, runContext, runLogger } from "./runContext";
import { noStreams } from "./runStreams";
import { sayAndRespond } from "./sayAndRespond";
import { runControls } from "./setStatus";
import type { RunTools } from "./types";

/**
 * What a listener's `run` is handed: its view of the delivery and, with Bolt's names, every
 * helper a run has. The one place a new run capability adds its arguments.
 */
export function runArgsOf(name: string, matched: ListenerContext, tools: RunTools): RunArgs {
  const { client, step, attempt, env = {} } = tools;
  const { inbound } = matched;
  const context = runContext(inbound, matched.context?.matches);
  const logger = runLogger({ dedupe_key: inbound.dedupeKey, key: tools.key, listener: name });
  const helpers = { ack: ackInRun, ...sayAndRespond(inbound, client), ...functionCompletion(inbound, client, step) };
  return { ...matched, client, step, attempt, context, logger, env, sayStream: noStreams, ...helpers, ...runControls(tools) };
}
