import type { RunEffect, SlackApp, StreamLimits, ThreadContextStore } from "../app/contract";
import { withRunControls } from "../app/run";
import { DeliveryError, HandlerError, HandlerMisuse, ListenerGone } from "../platform/errors";
import { oncePerEnv } from "../settings/once";
import { setting } from "../settings/table";
import type { EffectKind } from "./kind";
import { skippedForScopes } from "./ungrantedRuns";

/** HANDLER_MAX_ATTEMPTS: how often a handler's own bug is tried in all before the run is parked. */
const runSettings = oncePerEnv((vars) => ({
  handlerMaxAttempts: setting(vars, "HANDLER_MAX_ATTEMPTS"),
  // STREAM_MAX_OPEN_MS / STREAM_MAX_CHARS: a streamed reply moves to a new message before Slack's limits.
  streamLimits: {
    maxOpenMs: setting(vars, "STREAM_MAX_OPEN_MS"),
    maxChars: setting(vars, "STREAM_MAX_CHARS"),
    slackDropMs: setting(vars, "STREAM_SLACK_DROP_MS"),
    maxReplyChars: setting(vars, "STREAM_MAX_REPLY_CHARS"),
    maxReplyMs: setting(vars, "STREAM_MAX_REPLY_MS"),
  },
}));

/**
 * `run`: a listener's durable `run`, with `step()` checkpoints. What the listener throws through
 * our client keeps its meaning (a 429 is retried, channel_not_found parked); anything else it
 * throws is its own bug, retried HANDLER_MAX_ATTEMPTS times in all (a deploy may fix it) and then
 * parked with where it was thrown. A helper used where it cannot work (HandlerMisuse) is parked at
 * once, naming the listener.
 */
interface RunDeps {
  app: SlackApp;
  env: Record<string, unknown>;
  handlerMaxAttempts: number;
  agentSessions: boolean;
  streamLimits: StreamLimits;
  threadContexts?: ThreadContextStore;
}

export const run: EffectKind<RunEffect, RunDeps> = {
  type: "run",
  deps: ({ app, env, threadContexts, settings }) => ({
    app,
    env: { ...env },
    threadContexts,
    agentSessions: settings.agent.sessions,
    ...runSettings(env),
  }),
  async perform(effect, tools, deps) {
    const { client, step, attempts, key, streams: ledger, waits, stopped, userToken: userTokenOf } = tools;
    const { app, env, handlerMaxAttempts, threadContexts, streamLimits, agentSessions } = deps;
    if (!app.run) throw new ListenerGone("the app cannot run listeners");
    // Grants unknown (single-workspace mode, an older install record): it runs, and a refused call says missing_scope.
    if (skippedForScopes(app, effect, await tools.grantedScopes?.().catch(() => undefined))) return;
    try {
      const streams = { ledger, limits: streamLimits };
      // A workspace that cannot be authorized now fails at the run's first call, as before: here it has no user token.
      const userToken = await userTokenOf?.().catch(() => undefined);
      const tools = { client, step, attempt: attempts + 1, env, key, threadContexts, streams, userToken, waits, agentSessions };
      const runApp = app.run.bind(app);
      // Its session, status and stop button around the run (app/run/runStatus.ts); app.error's run works for no user.
      const around = { stopped, agentSessions: agentSessions && !effect.failure };
      await withRunControls(effect.inbound, client, around, (controls) => runApp(effect, { ...tools, controls }));
    } catch (error) {
      if (error instanceof HandlerMisuse)
        throw new HandlerMisuse(`handler "${effect.listener}": ${error.message}`, { cause: error });
      if (error instanceof DeliveryError) throw error;
      throw new HandlerError(effect.listener, error, handlerMaxAttempts);
    }
  },
};
