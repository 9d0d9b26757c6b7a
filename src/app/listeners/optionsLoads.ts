import type { Inbound } from "../../inbound/types";
import type { AckBody, EnvBindings, SlackApp } from "../contract";
import type { Registered } from "./deliveryPlan";
import type { OptionsArgs } from "./listenerArgs";
import { type DeliveryFilters, ignoredDelivery, listenerWants } from "./listenerFilters";
import {
  describeMatcher,
  type Listener,
  type ListenerSpec,
  type Matcher,
  matches,
  type RunContext,
  type RunLogger,
} from "./listeners";
import { constraintOf, type Match } from "./matchers";
import type { OptionsAckBody } from "./payloads";

/** Which element's actions or options loads a listener takes: its `action_id`, or `{ action_id, block_id }`. */
export type OptionsConstraint = Matcher | { action_id?: Matcher; block_id?: Matcher };

/**
 * An `app.options` listener acked from its pure `ack` alone: the options Slack shows, given at the
 * edge. There is nothing to run: a load changes nothing, and Slack never retries one.
 */
export type OptionsAcker = Pick<ListenerSpec<OptionsArgs>, "name" | "when"> & { ack: (args: OptionsArgs) => OptionsAckBody };

/** What a loading `app.options` listener gets: Bolt's arguments, at the edge, while Slack waits. */
export type OptionsLoadArgs<Env = EnvBindings> = OptionsArgs & {
  /** Answers the load with these options (the first call counts): Bolt's `await ack({ options })`. */
  ack(body: OptionsAckBody): Promise<void>;
  /** The Worker's bindings (typed by `new App<Env>()`): a D1 database, a KV namespace, an API's key the options come from. */
  env: Env;
  context: RunContext;
  logger: RunLogger;
  /** Aborted when the answer is due (ACK_BUDGET_MS after the request arrived): pass it to `fetch`. */
  signal: AbortSignal;
};

/**
 * Bolt's options listener, `async ({ options, ack }) => { … await ack({ options }) }`: it may read
 * a database or an API before it acks. It runs at the edge, once per load, and records nothing; a
 * load not acked within the edge's budget is answered with an empty list (edge/answerOptionsLoad.ts).
 */
export type OptionsLoader<Env = EnvBindings> = (args: OptionsLoadArgs<Env>) => void | Promise<void>;

export type OptionsListener<Env = EnvBindings> = OptionsAcker | OptionsLoader<Env>;

/** A loading listener as its registration keeps it: a spec with neither ack nor run, and its load. */
type LoaderSpec = ListenerSpec & { load: OptionsLoader };

/** The loading listener an options load goes to, and the arguments its match gives. */
export interface MatchedLoader {
  name: string;
  args: OptionsArgs;
  load: OptionsLoader;
}

export function optionsMatch({ action_id, block_id }: { action_id?: Matcher; block_id?: Matcher }): Match {
  return (inbound) =>
    inbound.kind === "interaction" &&
    inbound.type === "block_suggestion" &&
    matches(action_id, inbound.payload.action_id) &&
    matches(block_id, inbound.payload.block_id)
      ? { inbound, body: inbound.payload, options: inbound.payload }
      : undefined;
}

/** `app.options`' registration: its default name, the listener as a spec, its match. */
export function optionsRegistration<Env>(
  constraint: OptionsConstraint,
  listener: OptionsListener<Env>,
): [string, Listener<never>, Match] {
  const constraints = constraintOf<"action_id" | "block_id">(constraint, "action_id");
  // The load gets the Worker's env, which `Env` describes (the app's word for it; loadOptionsWith passes it as is).
  const spec = (typeof listener === "function" ? { load: listener } : listener) as ListenerSpec<OptionsArgs> | LoaderSpec;
  // The spec's ack gets the context optionsMatch builds, which is what OptionsArgs promises.
  return [`options:${describeMatcher(constraints.action_id)}`, spec as Listener<never>, optionsMatch(constraints)];
}

/**
 * The loading listener an options load goes to: the first registered listener that matches it is
 * the one that answers (as for a pure `ack`). Undefined when that one acks purely, when none
 * matches, or for anything else than an options load.
 */
export function optionsLoaderFor(
  inbound: Inbound,
  listeners: readonly Registered[],
  filters: DeliveryFilters,
): MatchedLoader | undefined {
  if (inbound.kind !== "interaction" || inbound.type !== "block_suggestion" || ignoredDelivery(inbound, filters)) return;
  for (const { name, spec, match } of listeners) {
    const context = match(inbound);
    if (!context || !listenerWants(spec, context)) continue;
    const load = (spec as Partial<LoaderSpec>).load;
    return load ? { name, args: context as OptionsArgs, load } : undefined;
  }
}

/**
 * The ack body of an options load that `app` gives in its ack alone (no effect to record): given at
 * the edge, without a shard — a load is acked within Slack's 3 s whatever the mode, and the
 * keystrokes of a typeahead write nothing. Undefined for anything else, which is recorded as usual.
 */
export function optionsLoadAck(app: SlackApp, inbound: Inbound): AckBody | undefined {
  if (inbound.kind !== "interaction" || inbound.type !== "block_suggestion") return undefined;
  const plan = app.plan(inbound);
  return "ignore" in plan || plan.effects.length > 0 ? undefined : plan.ackBody;
}
