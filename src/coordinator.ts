import type { SlackApp } from "./app/types";
import { buildRouter } from "./edge/router";
import type { CoordinatorEnv } from "./env";
import { defineShard } from "./shard/Shard";

/**
 * Composes the front Worker and the shard Durable Object class for one app. Export both
 * from the Worker's entry module (the class under the name wrangler.toml binds).
 */
export function createCoordinator(app: SlackApp) {
  const router = buildRouter(app);
  return {
    worker: {
      fetch: (request, env, ctx) => router.fetch(request, env, ctx),
    } satisfies ExportedHandler<CoordinatorEnv>,
    Shard: defineShard(app),
  };
}
