import { eventOf } from "../../inbound/eventOf";
import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import type { ListenerContext } from "./listenerArgs";
import { describeMatcher, type Matcher, matches } from "./listeners";

type Json = Record<string, unknown>;

/**
 * Each listener kind's match: the listener's view of a delivery, or undefined when it does not
 * match. Pure, and computed again from the stored payload on every run attempt (never stored).
 * A new kind adds its matcher here or in its own file, and a registration method in App.
 */
export type Match = (inbound: Inbound) => ListenerContext | undefined;

/** A constraint on one field, or on several (`{ action_id, block_id }`): as an object of matchers. */
export function constraintOf<K extends string>(
  constraint: Matcher | Partial<Record<K, Matcher>>,
  field: K,
): Partial<Record<K, Matcher>> {
  return typeof constraint === "object" && !(constraint instanceof RegExp)
    ? constraint
    : ({ [field]: constraint } as Partial<Record<K, Matcher>>);
}

export function eventMatch(types: readonly string[]): Match {
  return (inbound) => {
    const event = eventOf(inbound);
    return event && types.includes(inbound.type) ? { inbound, body: inbound.payload, event } : undefined;
  };
}

/** `message` events whose text contains a string or matches a RegExp (its match as `context.matches`). */
export function messageMatch(pattern: Matcher | undefined): Match {
  return (inbound) => {
    const event = eventOf(inbound);
    if (!event || inbound.type !== "message") return undefined;
    const text = typeof event.text === "string" ? event.text : "";
    if (!(pattern instanceof RegExp))
      return pattern === undefined || text.includes(pattern)
        ? { inbound, body: inbound.payload, event, message: event }
        : undefined;
    const found = text.match(pattern);
    return found ? { inbound, body: inbound.payload, event, message: event, context: { matches: found } } : undefined;
  };
}

export function commandMatch(name: Matcher): Match {
  return (inbound) =>
    inbound.kind === "command" && matches(name, inbound.type)
      ? { inbound, body: inbound.payload, command: inbound.payload as Record<string, string> }
      : undefined;
}

/** An action listener's name and match: block_actions whose action matches `action_id` (or `{ action_id, block_id }`). */
export function actionRegistration(constraint: Matcher | { action_id?: Matcher; block_id?: Matcher }): [string, Match] {
  const constraints = constraintOf<"action_id" | "block_id">(constraint, "action_id");
  return [`action:${describeMatcher(constraints.action_id)}`, actionMatch(constraints)];
}

export function actionMatch({ action_id, block_id }: { action_id?: Matcher; block_id?: Matcher }): Match {
  return (inbound) => {
    if (inbound.kind !== "interaction" || inbound.type !== "block_actions" || !Array.isArray(inbound.payload.actions))
      return undefined;
    const action = inbound.payload.actions.find(
      (a): a is Json => isObject(a) && matches(action_id, a.action_id) && matches(block_id, a.block_id),
    );
    return action ? { inbound, body: inbound.payload, action } : undefined;
  };
}

/** A view listener's name and match: view_submission (default) or view_closed of views with this `callback_id`. */
export function viewRegistration(
  constraint: Matcher | { callback_id: Matcher; type?: "view_submission" | "view_closed" },
): [string, Match] {
  const { callback_id, type = "view_submission" } =
    typeof constraint === "object" && !(constraint instanceof RegExp) ? constraint : { callback_id: constraint };
  return [`view:${describeMatcher(callback_id)}:${type}`, viewMatch(callback_id, type)];
}

export function viewMatch(callbackId: Matcher | undefined, type: "view_submission" | "view_closed"): Match {
  return (inbound) => {
    const view = inbound.payload.view;
    return inbound.kind === "interaction" && inbound.type === type && isObject(view) && matches(callbackId, view.callback_id)
      ? { inbound, body: inbound.payload, view }
      : undefined;
  };
}

/** Global shortcuts and message shortcuts (`message_action`). */
export function shortcutMatch(callbackId: Matcher): Match {
  return (inbound) =>
    inbound.kind === "interaction" &&
    (inbound.type === "shortcut" || inbound.type === "message_action") &&
    matches(callbackId, inbound.payload.callback_id)
      ? { inbound, body: inbound.payload, shortcut: inbound.payload }
      : undefined;
}
