import type { EffectKind } from "./kind";
import type { SlackApiEffect } from "./types";

/**
 * `slack.api`: one Web API call with the workspace's bot token. Classification is Slack's answer
 * (slack/classifyAnswer.ts); a views.open with a trigger_id gets only its immediate attempt.
 */
export const slackApi: EffectKind<SlackApiEffect> = {
  type: "slack.api",
  async perform(effect, { client }) {
    await client.call(effect.method, effect.body);
  },
  // Per method; posting messages also per channel (Slack allows about one per second per channel).
  rateKey(effect) {
    const channel =
      effect.method === "chat.postMessage" && typeof effect.body.channel === "string" ? `:${effect.body.channel}` : "";
    return `${effect.method}${channel}`;
  },
};
