// listeners/events/app-home-opened.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { EventArgs, EventOf, RunArgs } from "../../../../../src/lib";
import { buildAppHomeView } from "../views/appHomeBuilder";

/** Handle the app_home_opened event by publishing the app's home view. */
export async function handleAppHomeOpened({
  client,
  context,
  logger,
}: RunArgs<EventArgs<EventOf<"app_home_opened">>>): Promise<void> {
  try {
    // The sample's own cast (JSDoc `@type {string}` in the original).
    const userId = context.userId as string;

    let installUrl = null;
    let isConnected = false;

    if (process.env.SLACK_CLIENT_ID) {
      if (context.userToken) {
        isConnected = true;
      } else if (process.env.SLACK_REDIRECT_URI) {
        const base = new URL(process.env.SLACK_REDIRECT_URI);
        installUrl = `${base.origin}/slack/install`;
      }
    }

    const view = buildAppHomeView(installUrl, isConnected, context.botUserId);
    await client.views.publish({ user_id: userId, view });
  } catch (e) {
    logger.error(`Failed to publish App Home: ${e}`);
  }
}
