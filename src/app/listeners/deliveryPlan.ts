import { eventAgeMs } from "../../inbound/eventAge";
import type { Inbound } from "../../inbound/types";
import type { AckBody, LateEvent, Plan, PlannedEffect, RunEffect } from "../contract";
import { toAckBody } from "./ackBody";
import type { PlanOptions } from "./appOptions";
import { checkedMaxEventAge, isLate } from "./lateEvents";
import { ignoredDelivery, listenerWants } from "./listenerFilters";
import type { ListenerSpec } from "./listeners";
import type { Match } from "./matchers";
import { budgetOf, limitsOf } from "./turnLimits";
import { turnOf } from "./turns";

/** A listener as the app registered it: its name (one per app), its spec and its match. */
export interface Registered {
  name: string;
  spec: ListenerSpec;
  /** The listener's view of the delivery, or undefined when it does not match. */
  match: Match;
}

/**
 * The name a listener is registered under, one per app: its spec's `name`, else `defaultName`
 * (`#2`, `#3`… while taken). A spec's name already taken, or a bad `maxEventAgeMs`, throws.
 */
export function registeredName(defaultName: string, spec: ListenerSpec, registered: readonly Registered[]): string {
  const taken = (name: string) => registered.some((l) => l.name === name);
  let name = spec.name ?? defaultName;
  if (!spec.name) for (let n = 2; taken(name); n++) name = `${defaultName}#${n}`;
  if (taken(name)) throw new Error(`listener name "${name}" is already taken`);
  checkedMaxEventAge(spec.maxEventAgeMs, `listener "${name}"`);
  return name;
}

/**
 * A delivery's plan over the registered listeners (`SlackApp.plan`): ignored by the built-in
 * filters or when no listener matches; else the first matching listener's ack body, and a run
 * for each matching listener that runs — a turn of its conversation when it answers a person's
 * message there under the listener's (or the app's) turn policy (turns.ts), under its turn budgets
 * when it has `limits` (turnLimits.ts; the shard counts them). A listener the event
 * is too old for (lateEvents.ts) is left out and named in `late`; when all are, it is ignored.
 */
export function planOf(inbound: Inbound, listeners: readonly Registered[], options: PlanOptions): Plan {
  const ignored = ignoredDelivery(inbound, options);
  if (ignored) return { ignore: ignored };

  const effects: PlannedEffect[] = [];
  let ackBody: AckBody | undefined;
  let matched = false;
  // A run needs the parsed delivery, never the request as Slack sent it (relay mode's, which its relay row keeps).
  const { raw: _request, ...delivery } = inbound;
  // Measured from the edge's receipt stamp, so the edge and the shard plan it alike, on every retry.
  const ageMs = eventAgeMs(inbound);
  const late: LateEvent["listeners"] = [];
  for (const listener of listeners) {
    const context = listener.match(inbound);
    if (!context || !listenerWants(listener.spec, context)) continue;
    const maxEventAgeMs = listener.spec.maxEventAgeMs ?? options.maxEventAgeMs;
    if (isLate(ageMs, maxEventAgeMs)) {
      late.push({ listener: listener.name, maxEventAgeMs });
      continue;
    }
    matched = true;
    const body = toAckBody(listener.spec.ack?.(context), inbound);
    ackBody ??= body;
    // A submission rejected with field errors stays open in Slack; there is nothing to run.
    if (body?.response_action === "errors" || !listener.spec.run) continue;
    const effect: RunEffect = { type: "run", listener: listener.name, inbound: delivery };
    const turn = turnOf(inbound, listener.spec.turns ?? options.turns);
    const scope = listener.spec.dedupe === "fact" ? "fact" : "delivery";
    const budget = budgetOf(inbound, limitsOf(options.limits, listener.spec.limits));
    effects.push({ name: `run:${listener.name}`, effect, scope, ...(turn ? { turn } : {}), ...(budget ? { budget } : {}) });
  }
  const lateEvent = ageMs !== undefined && late.length > 0 ? { late: { ageMs, listeners: late } } : {};
  if (matched) return { effects, ackBody, ...lateEvent };
  return late.length > 0 ? { ignore: "late event", ...lateEvent } : { ignore: "no handler" };
}
