import type { SlackApp } from "./app/contract";
import type { Authorize } from "./auth/authorize";
import { buildRouter } from "./edge/router";
import { byMode } from "./installations/authorizeInstallation";
import { Installations } from "./installations/Installations";
import type { CoordinatorEnv } from "./rpc/env";
import { defineShard } from "./shard/Shard";

export interface CoordinatorOptions {
  /** The app: an `App` with Bolt-style listeners, or anything that plans effects (SlackApp). */
  app: SlackApp;
  /**
   * Credentials per workspace, resolved on the shard when an effect calls the Web API.
   * Default: the installation store in OAuth mode (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET set),
   * else single-workspace mode, SLACK_BOT_TOKEN for every workspace.
   */
  authorize?: Authorize<CoordinatorEnv>;
}

/**
 * Composes the front Worker and the Durable Object classes for one app. Export them from the
 * Worker's entry module under the names wrangler.toml binds: `Shard` always, `Installations`
 * for OAuth mode (docs/guides/oauth.md).
 */
export function createCoordinator({ app, authorize = byMode }: CoordinatorOptions) {
  const router = buildRouter(app);
  return {
    worker: {
      fetch: (request, env, ctx) => router.fetch(request, env, ctx),
    } satisfies ExportedHandler<CoordinatorEnv>,
    Shard: defineShard(app, authorize),
    Installations,
  };
}
