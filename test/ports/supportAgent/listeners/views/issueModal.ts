// listeners/views/issue-modal.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { RunArgs, ViewArgs } from "../../../../../src/lib";

/**
 * Handle issue submission from the modal.
 *
 * Posts the issue as a DM with metadata so the message event handler
 * picks it up and runs the agent from there.
 */
export async function handleIssueSubmission({ ack, body, client, context, logger }: RunArgs<ViewArgs>): Promise<void> {
  await ack();

  try {
    // The sample's own casts (JSDoc `@type {string}` in the original).
    const userId = context.userId as string;
    const values = body.view.state.values;
    const category = values.category_block.category_select.selected_option?.value as string;
    const description = values.description_block.description_input.value as string;

    // Open a DM with the user
    const dm = await client.conversations.open({ users: userId });
    const channelId = dm.channel?.id as string;

    // Post the issue message with metadata so the message handler can
    // identify it and run the agent on behalf of the original user
    const userMessage = `*Category:* ${category}\n*Description:* ${description}`;
    await client.chat.postMessage({
      channel: channelId,
      text: userMessage,
      metadata: {
        event_type: "issue_submission",
        event_payload: { user_id: userId as string },
      },
    });
  } catch (e) {
    logger.error(`Failed to handle issue submission: ${e}`);
  }
}
