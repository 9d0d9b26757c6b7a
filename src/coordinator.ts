import type { SlackApp } from "./app/types";
import { type Authorize, singleWorkspace } from "./auth/authorize";
import { buildRouter } from "./edge/router";
import type { CoordinatorEnv } from "./env";
import { defineShard } from "./shard/Shard";

export interface CoordinatorOptions {
  /** The app: an `App` with Bolt-style listeners, or anything that plans effects (SlackApp). */
  app: SlackApp;
  /**
   * Credentials per workspace, resolved on the shard when an effect calls the Web API.
   * Default: single-workspace mode, SLACK_BOT_TOKEN for every workspace.
   */
  authorize?: Authorize<CoordinatorEnv>;
}

/**
 * Composes the front Worker and the shard Durable Object class for one app. Export both
 * from the Worker's entry module (the class under the name wrangler.toml binds).
 */
export function createCoordinator({ app, authorize = singleWorkspace }: CoordinatorOptions) {
  const router = buildRouter(app);
  return {
    worker: {
      fetch: (request, env, ctx) => router.fetch(request, env, ctx),
    } satisfies ExportedHandler<CoordinatorEnv>,
    Shard: defineShard(app, authorize),
  };
}
