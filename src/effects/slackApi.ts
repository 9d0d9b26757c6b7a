import type { SlackApiEffect } from "../app/effects";
import { callRateKey } from "../pacing/tiers";
import type { EffectKind } from "./kind";

/**
 * `slack.api`: one Web API call with the workspace's bot token. Classification is Slack's answer
 * (slack/classifyAnswer.ts); a views.open with a trigger_id gets only its immediate attempt.
 */
export const slackApi: EffectKind<SlackApiEffect> = {
  type: "slack.api",
  async perform(effect, { client }) {
    await client.call(effect.method, effect.body);
  },
  // Slack's rate key, as pacing names it: per method, posting messages per channel.
  rateKey: (effect) => callRateKey(effect.method, effect.body),
};
