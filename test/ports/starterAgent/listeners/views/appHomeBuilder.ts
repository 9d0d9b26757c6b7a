// listeners/views/app-home-builder.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import type { HomeView, KnownBlock } from "@slack/types";

/**
 * Build the App Home Block Kit view.
 * @param installUrl - OAuth install URL shown when MCP is disconnected.
 * @param isConnected - Whether the Slack MCP Server is connected.
 */
export function buildAppHomeView(installUrl: string | null = null, isConnected = false): HomeView {
  const blocks: KnownBlock[] = [
    {
      type: "header",
      text: {
        type: "plain_text",
        text: "Hey there :wave: I'm your Slack assistant.",
      },
    },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text:
          "I'm here to help! You can ask me questions, have a conversation, " +
          "or ask me to do things in Slack.\n\n" +
          "Send me a *direct message* or *mention me in a channel* to get started.",
      },
    },
    { type: "divider" },
  ];

  if (isConnected) {
    blocks.push(
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: "\ud83d\udfe2 *Slack MCP Server is connected.*",
        },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: "The agent can search messages, read channels, and more.",
          },
        ],
      },
    );
  } else if (installUrl) {
    blocks.push(
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `\ud83d\udd34 *Slack MCP Server is disconnected.* <${installUrl}|Connect the Slack MCP Server.>`,
        },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: "The Slack MCP Server enables the agent to search messages, read channels, and more.",
          },
        ],
      },
    );
  } else {
    blocks.push(
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: "\ud83d\udd34 *Slack MCP Server is disconnected.* <https://github.com/slack-samples/bolt-js-starter-agent/blob/main/openai-agents-sdk/README.md#slack-mcp-server|Learn how to enable the Slack MCP Server.>",
        },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: "The Slack MCP Server enables the agent to search messages, read channels, and more.",
          },
        ],
      },
    );
  }

  return { type: "home", blocks };
}
