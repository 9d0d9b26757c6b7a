import type { EnvBindings, SlackApp } from "./app/contract";
import type { AppManifest } from "./app/manifest";
import type { Authorize } from "./auth/authorize";
import { buildRouter } from "./edge/router";
import { byMode } from "./installations/authorizeInstallation";
import { Installations } from "./installations/Installations";
import { log } from "./platform/log";
import type { CoordinatorEnv } from "./rpc/env";
import { defineShard } from "./shard/Shard";

/** `Env`: the Worker's env as the app's listeners and `authorize` see it (`createCoordinator<Env>`, `new App<Env>()`). */
export interface CoordinatorOptions<Env = EnvBindings> {
  /** The app: an `App` with Bolt-style listeners, or anything that plans effects (SlackApp). */
  app: SlackApp<Env>;
  /**
   * Credentials per workspace, resolved on the shard when an effect calls the Web API.
   * Default: the installation store in OAuth mode (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET set),
   * else single-workspace mode, SLACK_BOT_TOKEN for every workspace.
   */
  authorize?: Authorize<CoordinatorEnv & Env>;
  /**
   * The app's Slack manifest as deployed (e.g. `import manifest from "./manifest.json"`): at start
   * (an isolate's first request) one log line names every listener it does not subscribe to.
   */
  manifest?: AppManifest;
}

/** Names, once, the listeners `manifest` leaves unreachable: Slack would silently never call them. */
function manifestCheck(app: SlackApp, manifest: AppManifest | undefined): () => void {
  let checked = manifest === undefined || !app.unsubscribed;
  return () => {
    if (checked) return;
    checked = true;
    const listeners = app.unsubscribed!(manifest!);
    if (listeners.length > 0)
      log("warn", "the app's manifest does not subscribe to these listeners: Slack never calls them", {
        listeners: listeners.join(", "),
        fix: "add their events, commands, shortcuts or steps to the manifest (npx slack-durable-coordinator manifest --url …)",
      });
  };
}

/**
 * Composes the front Worker and the Durable Object classes for one app. Export them from the
 * Worker's entry module under the names wrangler.toml binds: `Shard` always, `Installations`
 * for OAuth mode (docs/guides/oauth.md). `Env` is inferred from `app` (`new App<Env>()`), or given.
 */
export function createCoordinator<Env = EnvBindings>({ app: typedApp, authorize = byMode, manifest }: CoordinatorOptions<Env>) {
  // The shard hands the app the Worker's env as it is: `Env` is the app's word for what it holds.
  const app = typedApp as SlackApp;
  const router = buildRouter(app);
  const checkManifest = manifestCheck(app, manifest);
  return {
    worker: {
      fetch: (request, env, ctx) => {
        checkManifest();
        return router.fetch(request, env, ctx);
      },
    } satisfies ExportedHandler<CoordinatorEnv>,
    Shard: defineShard(app, authorize as Authorize<CoordinatorEnv>),
    Installations,
  };
}
