import { bucketOf } from "../pacing/tiers";
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
  // Slack's rate-limit bucket, as pacing names it: per method, posting messages per channel.
  rateKey: (effect) => bucketOf(effect.method, effect.body),
};
