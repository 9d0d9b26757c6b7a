// listeners/views/index.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { App } from "../../../../../src/lib";
import { handleIssueSubmission } from "./issueModal";

/** Register view listeners with the Bolt app. */
export function register(app: App): void {
  app.view("issue_submission", handleIssueSubmission);
}
