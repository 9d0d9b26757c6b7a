// listeners/views/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import type { App } from "../../../../../src/lib";

/** Register view listeners with the Bolt app. */
export function register(_app: App): void {
  // No view submissions to register for the starter agent.
}
