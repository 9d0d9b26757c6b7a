// listeners/actions/feedback-buttons.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import type { ActionArgs, RunArgs } from "../../../../../src/lib";

/** Handle feedback button interactions. */
export async function handleFeedbackButton({ ack, body, client, context, logger }: RunArgs<ActionArgs>): Promise<void> {
  await ack();

  try {
    // The sample's own casts (JSDoc `@type {string}` in the original).
    const userId = context.userId as string;
    const channelId = body.channel?.id as string;
    const messageTs = body.message?.ts as string;
    const feedbackValue = body.actions[0].value;

    if (feedbackValue === "good-feedback") {
      await client.chat.postEphemeral({
        channel: channelId,
        user: userId,
        thread_ts: messageTs,
        text: "Glad that was helpful! :tada:",
      });
    } else {
      await client.chat.postEphemeral({
        channel: channelId,
        user: userId,
        thread_ts: messageTs,
        text: "Sorry that wasn't helpful. :slightly_frowning_face: Try rephrasing your question and I'll give it another shot.",
      });
    }

    logger.debug(`Feedback received: value=${feedbackValue}, message_ts=${messageTs}`);
  } catch (e) {
    logger.error(`Failed to handle feedback: ${e}`);
  }
}
