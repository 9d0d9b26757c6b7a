import type { Effect, RunTools, SlackApp } from "../app/types";
import type { SlackClient } from "../slack/client";
import { verdictOf, type Verdict } from "./classify";
import { expiredHandle } from "./expiry";

export interface EffectContext {
  app: SlackApp;
  client: SlackClient;
  attempts: number;
  createdAt: number;
  /** Step checkpoints for a `run` effect, bound to its row and lease. */
  runTools: () => RunTools;
}

/** Performs one effect once and says what that means for its row. Never throws. */
export async function performEffect(effect: Effect, context: EffectContext): Promise<Verdict> {
  const expired = expiredHandle(effect, context.attempts, context.createdAt, Date.now());
  if (expired) return { outcome: "park", reason: expired };
  try {
    switch (effect.type) {
      case "slack.api":
        await context.client.call(effect.method, effect.body);
        break;
      case "response_url":
        await context.client.respond(effect.url, effect.body);
        break;
      case "run":
        if (!context.app.run) return { outcome: "park", reason: "the app cannot run listeners" };
        await context.app.run(effect, context.runTools());
        break;
    }
    return { outcome: "delivered" };
  } catch (error) {
    return verdictOf(error);
  }
}

/**
 * The bucket Slack rate-limits an effect in, within one workspace: per method, and for
 * posting messages per channel too. After a 429 the whole bucket waits out Retry-After.
 */
export function rateKeyOf(effect: Effect): string | null {
  if (effect.type !== "slack.api") return null;
  const channel = effect.method === "chat.postMessage" && typeof effect.body.channel === "string" ? `:${effect.body.channel}` : "";
  return `${effect.method}${channel}`;
}
