// listeners/events/index.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { App } from "../../../../../src/lib";
import { handleAppHomeOpened } from "./appHomeOpened";
import { handleAppMentioned } from "./appMentioned";
import { handleAssistantThreadStarted } from "./assistantThreadStarted";
import { handleMessage } from "./message";

/** Register event listeners with the Bolt app. */
export function register(app: App): void {
  app.event("app_home_opened", handleAppHomeOpened);
  app.event("app_mention", handleAppMentioned);
  app.event("assistant_thread_started", handleAssistantThreadStarted);
  // With `ignoreSelf: false`, the app's own messages (the issue submissions it posts into the DM)
  // reach only listeners that take bots' messages; Bolt passes them to every listener.
  app.event("message", { includeBots: true, run: handleMessage });
}
