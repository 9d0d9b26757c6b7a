// agent/tools/emoji-reaction.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported: the
// AI SDK's `tool()` in place of @openai/agents' (its `context` is the run context, as there).
import { jsonSchema, tool } from "ai";
import type { AgentContext, AgentDeps } from "../deps";

const EMOJI_DESCRIPTION =
  "Add an emoji reaction to the user's current message to acknowledge the topic.\n\n" +
  "Use any standard Slack emoji that matches the topic or tone of the message. " +
  "Be creative and specific — if someone mentions a dog, use `dog`; if they sound " +
  "frustrated, use `sweat_smile`. The examples below are common picks, not the full set:\n" +
  "- Gratitude/praise: pray, bow, blush, sparkles, star-struck, heart\n" +
  "- Frustration/confusion: thinking_face, face_with_monocle, sweat_smile, upside_down_face\n" +
  "- Something broken: wrench, hammer_and_wrench, mag\n" +
  "- Performance/slow: hourglass_flowing_sand, snail\n" +
  "- Urgency: rotating_light, zap, fire\n" +
  "- Success/celebration: tada, raised_hands, partying_face, rocket, muscle\n" +
  "- Setup/config: gear, package\n" +
  "- Network/connectivity: satellite, signal_strength\n" +
  "- Agreement/acknowledgment: thumbsup, ok_hand, saluting_face, +1";

/** Emoji reaction tool for the starter agent. */
export const addEmojiReaction = tool({
  description: EMOJI_DESCRIPTION,
  inputSchema: jsonSchema<{ emoji_name: string }>({
    type: "object",
    properties: {
      emoji_name: { type: "string", description: "The Slack emoji name without colons (e.g. 'tada', 'wrench', 'pray')." },
    },
    required: ["emoji_name"],
  }),
  contextSchema: jsonSchema<AgentContext>({}),
  execute: async ({ emoji_name }, context) => {
    // The sample's own cast (JSDoc `@type`): a tool may be called without a run context.
    const deps = context?.context as AgentDeps;

    // (The sample skips ~15% of reactions at random; left out so the port's tests are deterministic.)

    // The port's one addition: the reaction is a step, so a retried run does not react again.
    return deps.run.step(`tool:add_emoji_reaction:${emoji_name}`, async () => {
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
    });
  },
});
