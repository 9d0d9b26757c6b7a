// Not in Slack's sample: a tool that acts for the user, with a durable wait for their confirmation.
// It stands in for the Slack MCP Server's "send a message" (the sample's agent gets that tool from
// the MCP server, which needs OpenAI's runtime and a user token). Before it posts anywhere, the
// user is asked in the thread, with two buttons; the run is suspended until one is clicked (or ten
// minutes pass) — no isolate, lease or delivery slot held — and goes on from there.
import { jsonSchema, tool } from "ai";
import type { AgentContext, AgentDeps } from "../deps";

/** Send a message to a channel for the user, once they confirm it. */
export const sendMessage = tool({
  description: "Send a message to a Slack channel on the user's behalf. The user is asked to confirm it first.",
  inputSchema: jsonSchema<{ channel: string; text: string }>({
    type: "object",
    properties: {
      channel: { type: "string", description: "The channel's ID (C…)." },
      text: { type: "string", description: "The message to send." },
    },
    required: ["channel", "text"],
  }),
  contextSchema: jsonSchema<AgentContext>({}),
  execute: async ({ channel, text }, context) => {
    const deps = context?.context as AgentDeps;

    // Inside this tool's own try/catch, as Slack's code is written: the wait suspends the run past it.
    try {
      const answer = await deps.run.waitForAction(`send_message:${channel}`, {
        text: `Send this to <#${channel}>?\n> ${text}`,
        buttons: [
          { text: "Send", value: "send", action_id: "send_message_confirm", style: "primary" },
          { text: "Cancel", value: "cancel", action_id: "send_message_confirm" },
        ],
        timeoutMs: 10 * 60_000,
      });
      if (answer.timedOut || answer.value !== "send") return `Not sent to <#${channel}>: the user did not confirm it`;

      // Sent once per run: a retried run gets the posted message back instead of posting it again.
      const posted = await deps.run.step(`tool:send_message:${channel}`, async () => {
        const message = await deps.client.chat.postMessage({ channel, text });
        return { ts: message.ts };
      });
      return `Sent to <#${channel}> (ts ${posted.ts})`;
    } catch (e) {
      const err = e as { data?: { error?: string }; message?: string };
      return `Could not send the message: ${err.data?.error || err.message}`;
    }
  },
});
