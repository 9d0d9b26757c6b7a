import { stopEffects } from "../app/agent";
import type { SlackApp } from "../app/contract";
import { withOwnEffects } from "../app/contract";
import { withWaitClicks } from "../app/waits";
import { lifecycleEffects } from "../installations/lifecycle";
import { relayEffects } from "../relay/relayPlan";
import type { CoordinatorEnv } from "../rpc/env";
import { oauthMode, relayMode } from "../settings";

/**
 * The app as this deployment serves it: the user's app, plus what the coordinator plans itself —
 * the stop button's calls (agent_session_stopped), the relay (RELAY_URL) and installation lifecycle events (OAuth mode);
 * clicks on durable waits' questions are the waits'. The edge and the shard both plan with it. A
 * mode whose settings are invalid throws InvalidSetting.
 */
export function servedApp(app: SlackApp, env: CoordinatorEnv): SlackApp {
  const stopping = withOwnEffects(withWaitClicks(app), stopEffects);
  const lifecycle = oauthMode(env) ? withOwnEffects(stopping, lifecycleEffects) : stopping;
  return relayMode(env) ? withOwnEffects(lifecycle, relayEffects) : lifecycle;
}
