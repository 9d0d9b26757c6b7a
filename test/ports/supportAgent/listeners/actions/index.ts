// listeners/actions/index.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { App } from "../../../../../src/lib";
import { handleFeedbackButton } from "./feedbackButtons";
import { handleIssueButton } from "./issueButtons";

/** Register action listeners with the Bolt app. */
export function register(app: App): void {
  app.action(/^category_/, handleIssueButton);
  app.action("feedback", handleFeedbackButton);
}
