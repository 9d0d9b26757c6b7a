import type { Inbound } from "../../inbound/types";
import type { AckBody, SlackApp } from "../contract";
import type { OptionsArgs } from "./listenerArgs";
import { describeMatcher, type Listener, type ListenerSpec, type Matcher, matches } from "./listeners";
import { constraintOf, type Match } from "./matchers";
import type { OptionsAckBody } from "./payloads";

/** Which options loads a listener acks: an external select's `action_id`, or `{ action_id, block_id }`. */
export type OptionsConstraint = Matcher | { action_id?: Matcher; block_id?: Matcher };

/**
 * An `app.options` listener: its `ack` gives the load's ack body, the options Slack shows — pure, at
 * the edge. There is nothing to run: a load changes nothing, and Slack never retries one.
 */
export type OptionsListener = Pick<ListenerSpec<OptionsArgs>, "name" | "when"> & { ack: (args: OptionsArgs) => OptionsAckBody };

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
export function optionsRegistration(constraint: OptionsConstraint, listener: OptionsListener): [string, Listener<never>, Match] {
  const constraints = constraintOf<"action_id" | "block_id">(constraint, "action_id");
  // The spec's ack gets the context optionsMatch builds, which is what OptionsArgs promises.
  return [`options:${describeMatcher(constraints.action_id)}`, listener as Listener<never>, optionsMatch(constraints)];
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
