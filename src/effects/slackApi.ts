import type { SlackApiEffect } from "../app/contract";
import { callRateKey } from "../pacing/tiers";
import { SlackApiError } from "../platform/errors";
import type { EffectKind } from "./kind";

/**
 * `slack.api`: one Web API call with the workspace's bot token. Classification is Slack's answer
 * (slack/classifyAnswer.ts); a call on a trigger_id (views.open, entity.presentDetails) gets only its immediate attempt.
 */
export const slackApi: EffectKind<SlackApiEffect> = {
  type: "slack.api",
  async perform(effect, { client }) {
    try {
      await client.call(effect.method, effect.body);
    } catch (error) {
      if (error instanceof SlackApiError && error.code !== undefined && effect.alreadyDone?.includes(error.code)) return;
      throw error;
    }
  },
  // Slack's rate key, as pacing names it: per method, posting messages per channel.
  rateKey: (effect) => callRateKey(effect.method, effect.body),
};
