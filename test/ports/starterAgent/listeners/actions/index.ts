// listeners/actions/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import type { App } from "../../../../../src/lib";
import { handleFeedbackButton } from "./feedbackButtons";

/** Register action listeners with the Bolt app. */
export function register(app: App): void {
  app.action("feedback", handleFeedbackButton);
}
