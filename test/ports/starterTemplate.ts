// The listeners of Slack's bolt-js-starter-template, ported: each callback is the original's body,
// with Bolt's argument names; only the import, the App construction and the export differ.
import { App, createCoordinator } from "../../src/lib";

export const app = new App();

app.action("sample_action_id", async ({ ack, client, body, logger }) => {
  try {
    await ack();
    // Slack sends `view` with actions taken inside a modal (it is optional on block_actions).
    await client.views.update({
      view_id: body.view!.id,
      hash: body.view!.hash,
      view: {
        type: "modal",
        callback_id: "sample_view_id",
        title: { type: "plain_text", text: "Updated modal title" },
        blocks: [
          { type: "section", text: { type: "mrkdwn", text: "Nice! You updated the modal! :tada:" } },
          {
            type: "image",
            image_url: "https://media.giphy.com/media/SVZGEcYt7brkFUyU90/giphy.gif",
            alt_text: "Yay! The modal was updated",
          },
          {
            type: "input",
            block_id: "input_block_id",
            label: { type: "plain_text", text: "What are your hopes and dreams?" },
            element: { type: "plain_text_input", action_id: "sample_input_id", multiline: true },
          },
          {
            block_id: "select_channel_block_id",
            type: "input",
            label: { type: "plain_text", text: "Select a channel to message the result to" },
            element: { type: "conversations_select", action_id: "sample_dropdown_id", response_url_enabled: true },
          },
        ],
        submit: { type: "plain_text", text: "Submit" },
      },
    });
  } catch (error) {
    logger.error(error);
  }
});

app.command("/sample-command", async ({ ack, respond, logger }) => {
  try {
    await ack();
    await respond("Responding to the sample command!");
  } catch (error) {
    logger.error(error);
  }
});

app.event("app_home_opened", async ({ client, event, logger }) => {
  // Ignore the `app_home_opened` event for anything but the Home tab
  if (event.tab !== "home") return;
  try {
    await client.views.publish({
      user_id: event.user,
      view: {
        type: "home",
        blocks: [{ type: "section", text: { type: "mrkdwn", text: `*Welcome home, <@${event.user}> :house:*` } }],
      },
    });
  } catch (error) {
    logger.error(error);
  }
});

app.message(/^(hi|hello|hey).*/, async ({ context, say, logger }) => {
  try {
    const greeting = context.matches[0];
    await say(`${greeting}, how are you?`);
  } catch (error) {
    logger.error(error);
  }
});

app.shortcut("sample_shortcut_id", async ({ shortcut, ack, client, logger }) => {
  try {
    const { trigger_id } = shortcut;
    await ack();
    await client.views.open({
      trigger_id,
      view: {
        type: "modal",
        callback_id: "sample_view_id",
        title: { type: "plain_text", text: "Sample modal title" },
        blocks: [
          {
            type: "section",
            text: { type: "mrkdwn", text: "Click the button to update the modal" },
            accessory: { type: "button", text: { type: "plain_text", text: "Update modal" }, action_id: "sample_action_id" },
          },
          {
            type: "input",
            block_id: "input_block_id",
            label: { type: "plain_text", text: "What are your hopes and dreams?" },
            element: { type: "plain_text_input", action_id: "sample_input_id", multiline: true },
          },
          {
            block_id: "select_channel_block_id",
            type: "input",
            label: { type: "plain_text", text: "Select a channel to message the result to" },
            element: { type: "conversations_select", action_id: "sample_dropdown_id", response_url_enabled: true },
          },
        ],
        submit: { type: "plain_text", text: "Submit" },
      },
    });
  } catch (error) {
    logger.error(error);
  }
});

app.view("sample_view_id", async ({ ack, view, body, client, logger }) => {
  try {
    await ack();
    const formValues = view.state.values;
    const sampleInputValue = formValues.input_block_id.sample_input_id.value;
    const sampleConvoDropdown = formValues.select_channel_block_id.sample_dropdown_id;
    await client.chat.postMessage({
      // A conversations_select with nothing chosen sends null; Slack makes the field optional.
      channel: sampleConvoDropdown.selected_conversation!,
      text: `<@${body.user.id}> submitted the following :sparkles: hopes and dreams :sparkles:: \n\n ${sampleInputValue}`,
    });
  } catch (error) {
    logger.error(error);
  }
});

const { worker, Shard, Installations } = createCoordinator({ app });

export { Installations, Shard };
export default worker;
