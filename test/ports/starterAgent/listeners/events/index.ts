// listeners/events/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import type { App } from "../../../../../src/lib";
import { handleAppHomeOpened } from "./appHomeOpened";
import { handleAppMentioned } from "./appMentioned";
import { handleMessage } from "./message";

/** Register event listeners with the Bolt app. */
export function register(app: App): void {
  app.event("app_home_opened", handleAppHomeOpened);
  app.event("app_mention", handleAppMentioned);
  app.event("message", handleMessage);
}
