import type { Inbound } from "../../inbound/types";
import type { SlackWebClient } from "../../slack/client";
import type { RunTools, Step } from "../contract";
import { functionCompletion } from "../functions";
import type { KindTools, ListenerContext, RunArgs } from "../listeners";
import { realtimeSearch } from "../search";
import { noStreams, type SayStream } from "../streams";
import { durableTimers, durableWaits } from "../waits";
import { entityDetailsTools } from "../workObjects";
import { runClientOf } from "./chatStream";
import { ackInRun, runContext } from "./runContext";
import { runControls } from "./runControls";
import { runLogger } from "./runLogger";
import { sayAndRespond } from "./sayAndRespond";

/** Every listener kind's own tools (`KindTools`), each built from the delivery: a kind's, or none for another's run. */
export type KindToolBuilders = {
  readonly [K in keyof KindTools]: (inbound: Inbound, client: SlackWebClient, step: Step) => KindTools[K] | Record<string, never>;
};

/** A kind named in `KindTools` without its builder here does not compile (docs/contributing.md, a new listener kind). */
export const KIND_TOOLS: KindToolBuilders = {
  function: functionCompletion,
  entityDetails: entityDetailsTools,
};

/**
 * What a listener's `run` is handed: its view of the delivery and, with Bolt's names, every
 * helper a run has. The one place a new run capability adds its arguments. Its tools are the
 * attempt's `guarded` ones (app/run/guardedTools.ts) when the app runs it.
 */
export function runArgsOf(name: string, matched: ListenerContext, tools: RunTools, sayStream: SayStream = noStreams): RunArgs {
  const { client, step, attempt, env = {} } = tools;
  const { inbound } = matched;
  const context = runContext(inbound, matched.context?.matches, tools.userToken);
  // `event_id` as on every line and span of the delivery; `dedupe_key` kept for queries written before it.
  const logger = runLogger({
    event_id: inbound.dedupeKey,
    dedupe_key: inbound.dedupeKey,
    workspace: inbound.workspace,
    key: tools.key,
    listener: name,
  });
  const helpers = {
    ack: ackInRun,
    ...sayAndRespond(inbound, client),
    ...kindTools(inbound, client, step),
  };
  const runClient = runClientOf(client, sayStream);
  const suspensions = { ...durableTimers(step), ...durableWaits(inbound, client, step, tools.waits) };
  const args: RunArgs = {
    ...matched,
    client: runClient,
    step,
    attempt,
    context,
    logger,
    env,
    sayStream,
    search: realtimeSearch(inbound, client, step),
    ...suspensions,
    ...helpers,
    ...runControls(tools),
  };
  return tools.guarded ? tools.guarded(args) : args;
}

/** Each kind's tools for this run: only its own kind's builder gives any. */
function kindTools(inbound: Inbound, client: SlackWebClient, step: Step): Record<string, unknown> {
  const builders = Object.values(KIND_TOOLS);
  return builders.reduce<Record<string, unknown>>((tools, build) => Object.assign(tools, build(inbound, client, step)), {});
}
