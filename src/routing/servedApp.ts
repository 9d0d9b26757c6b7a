import type { SlackApp } from "../app/types";
import { relaySettings } from "../config";
import type { CoordinatorEnv } from "../env";
import { withInstallationLifecycle } from "../installations/lifecycle";
import { oauthMode } from "../installations/mode";
import { withRelay } from "../relay/relayPlan";

/**
 * The app as this deployment serves it: the user's app, plus what the coordinator plans itself —
 * the relay (RELAY_URL) and installation lifecycle events (OAuth mode). The edge and the shard
 * both plan with it. A mode whose settings are invalid throws InvalidSetting.
 */
export function servedApp(app: SlackApp, env: CoordinatorEnv): SlackApp {
  const lifecycle = oauthMode(env) ? withInstallationLifecycle(app) : app;
  return relaySettings(env) ? withRelay(lifecycle) : lifecycle;
}
