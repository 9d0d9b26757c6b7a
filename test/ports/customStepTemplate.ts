// Slack's bolt-ts-custom-function-template (the TypeScript version of the custom-step template),
// ported: each callback is the original's body, with its own casts (`as string`, `complete!`,
// `channel!.id`, `message!.ts`, `fail!`, each with Slack's reason); only the import, the App
// construction and the export differ. The step's manifest entry is declared beside it.
import { App, type BlockAction, createCoordinator } from "../../src/lib";

export const app = new App();

/** Sample Function Listener */
app.function(
  "sample_function",
  {
    title: "Sample function",
    description: "Runs sample function",
    // The sample's manifest.json entry, in the manifest schema's shape (docs/guides/manifest.md).
    input_parameters: {
      properties: { user_id: { type: "slack#/types/user_id", title: "User", description: "Message recipient" } },
      required: ["user_id"],
    },
    output_parameters: {
      properties: { user_id: { type: "slack#/types/user_id", title: "User", description: "User that completed the function" } },
      required: ["user_id"],
    },
  },
  async ({ client, inputs, fail, logger }) => {
    try {
      const { user_id } = inputs;

      await client.chat.postMessage({
        channel: user_id as string,
        text: "Click the button to signal the function has completed",
        blocks: [
          {
            type: "section",
            text: {
              type: "mrkdwn",
              text: "Click the button to signal the function has completed",
            },
            accessory: {
              type: "button",
              text: {
                type: "plain_text",
                text: "Complete function",
              },
              action_id: "sample_button",
            },
          },
        ],
      });
    } catch (error) {
      logger.error(error);
      fail({ error: `Failed to handle a function request: ${error}` });
    }
  },
);

/** Sample Action Listener */
app.action<BlockAction>("sample_button", async ({ body, client, complete, fail, logger }) => {
  const { channel, message, user } = body;

  try {
    // Functions should be marked as successfully completed using `complete` or
    // as having failed using `fail`, else they'll remain in an 'In progress' state.
    // Learn more at https://api.slack.com/automation/interactive-messages
    // (Slack's reason for the `!`) we know this button comes from a function, so `fail` is available.
    await complete!({ outputs: { user_id: user.id } });

    await client.chat.update({
      // (Slack's reason for the `!`) we know this button was posted to a channel, so `channel` is available.
      channel: channel!.id,
      // (Slack's reason for the `!`) we know this button was posted to a channel, so `message` is available.
      ts: message!.ts,
      text: "Function completed successfully!",
    });
  } catch (error) {
    logger.error(error);
    // (Slack's reason for the `!`) we know this button comes from a function, so `fail` is available.
    fail!({ error: `Failed to handle a function request: ${error}` });
  }
});

const { worker, Shard, Installations } = createCoordinator({ app });

export { Installations, Shard };
export default worker;
