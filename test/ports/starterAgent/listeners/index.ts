// listeners/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import type { App } from "../../../../src/lib";
import * as actions from "./actions";
import * as events from "./events";
import * as views from "./views";

/** Register all Slack event, action, and view listeners. */
export function registerListeners(app: App): void {
  actions.register(app);
  events.register(app);
  views.register(app);
}
