import type { Inbound } from "../../inbound/types";
import type { Plan, SlackApp } from "../contract";
import { waitClickOf } from "./waitButtons";

/** What a click on an ended wait (answered, timed out, stopped) is told, ephemerally. */
export const WAIT_ENDED_TEXT = "This question has ended: your click changes nothing.";

/** How many answerers a refused click is told of by name (a longer list is counted). */
const NAMED_ANSWERERS = 5;

/** What a click by someone who may not answer a wait is told, ephemerally: whose question it is. */
export function waitNotYoursText(answerers: readonly string[]): string {
  const named = answerers.slice(0, NAMED_ANSWERERS).map((user) => `<@${user}>`);
  const more = answerers.length - named.length;
  if (more > 0) named.push(`${more} other${more === 1 ? "" : "s"}`);
  const who = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`;
  return `This question is for ${who}.`;
}

const served = new WeakMap<SlackApp, SlackApp>();

/**
 * `app` with clicks on durable waits' questions taken by the waits: recorded with no effect of
 * their own (the shard answers the wait in the click's own turn: parts/waits/clickAnswers.ts), and
 * never handed to the app's `app.action` listeners. Pure, like any plan; one wrapper per app.
 */
export function withWaitClicks(app: SlackApp): SlackApp {
  let wrapped = served.get(app);
  if (!wrapped) {
    wrapped = {
      plan: (inbound: Inbound): Plan => (waitClickOf(inbound) ? { effects: [] } : app.plan(inbound)),
      run: app.run?.bind(app),
      parked: app.parked?.bind(app),
      failureNotices: app.failureNotices?.bind(app),
      loadOptions: app.loadOptions?.bind(app),
      manifest: app.manifest?.bind(app),
      unsubscribed: app.unsubscribed?.bind(app),
      ungrantedScopes: app.ungrantedScopes?.bind(app),
    };
    served.set(app, wrapped);
  }
  return wrapped;
}
