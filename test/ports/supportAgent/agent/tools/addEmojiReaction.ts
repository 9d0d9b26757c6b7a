// agent/tools/add-emoji-reaction.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { CaseyDeps } from "../deps";
import { tool } from "../tool";

/** Emoji reaction tool for the Casey agent. */
export const addEmojiReaction = tool<{ emoji_name: string }>({
  name: "add_emoji_reaction",
  description: "Add an emoji reaction to the user's current message to acknowledge the topic.",
  execute: async ({ emoji_name }, context) => {
    // The sample's own cast (JSDoc `@type`): a tool may be called without a run context.
    const deps = context?.context as CaseyDeps;

    // (The sample skips ~15% of reactions at random; left out so the port's tests are deterministic.)

    try {
      await deps.client.reactions.add({
        channel: deps.channelId,
        timestamp: deps.messageTs,
        name: emoji_name,
      });
      return `Reacted with :${emoji_name}:`;
    } catch (e) {
      // The sample's own cast (JSDoc `@type {any}`): a caught value is unknown.
      const err = e as { data?: { error?: string }; message?: string };
      return `Could not add reaction: ${err.data?.error || err.message}`;
    }
  },
});
