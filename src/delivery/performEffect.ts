import type { Effect } from "../app/types";
import { callWebApi, postToResponseUrl, type CallResult } from "../slack/webApi";

export class MissingBotToken extends Error {
  override name = "MissingBotToken";
}

export interface DeliveryTarget {
  apiUrl: string;
  /** The workspace's bot token; undefined when none is configured yet. */
  token: string | undefined;
  timeoutMs: number;
}

/** Performs one effect once. Throws for network errors, timeouts and a missing token. */
export async function performEffect(effect: Effect, target: DeliveryTarget): Promise<CallResult> {
  // Each call gets its own timeout, so one hung call never holds up another row.
  const signal = AbortSignal.timeout(target.timeoutMs);
  switch (effect.type) {
    case "slack.api":
      if (!target.token) throw new MissingBotToken("SLACK_BOT_TOKEN is not set");
      return callWebApi({ apiUrl: target.apiUrl, token: target.token, method: effect.method, body: effect.body, signal });
    case "response_url":
      return postToResponseUrl(effect.url, effect.body, signal);
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
