// listeners/actions/issue-buttons.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { ActionArgs, RunArgs } from "../../../../../src/lib";
import { buildIssueModal } from "../views/issueModalBuilder";

/** Handle category button clicks from the App Home. */
export async function handleIssueButton({ ack, body, client, logger }: RunArgs<ActionArgs>): Promise<void> {
  await ack();

  try {
    const category = body.actions[0].value;
    const triggerId = body.trigger_id;
    const modal = buildIssueModal(category);
    await client.views.open({ trigger_id: triggerId, view: modal });
  } catch (e) {
    logger.error(`Failed to open issue modal: ${e}`);
  }
}
