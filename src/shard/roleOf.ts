import * as workers from "cloudflare:workers";
import type { SlackApp } from "../app/contract";
import type { Authorize } from "../auth/authorize";
import { traceWith } from "../platform/spans";
import type { ShardStorage } from "../recording/shardStorage";
import { servedApp } from "../routing/servedApp";
import type { CoordinatorEnv } from "../rpc/env";
import { WATCH } from "../rpc/watch";
import { WatchShard } from "./watchShard";
import { WorkspaceShard } from "./workspaceShard";

// Custom spans through the runtime's `tracing`, read off the namespace: a runtime without it is no link error.
traceWith((workers as { tracing?: unknown }).tracing);

/** The role a shard plays, picked once from its name: the watch, or a workspace's shard. */
export function roleOf(
  storage: ShardStorage,
  userApp: SlackApp,
  authorize: Authorize<CoordinatorEnv>,
  env: CoordinatorEnv,
): WorkspaceShard | WatchShard {
  const Role = storage.name === WATCH ? WatchShard : WorkspaceShard;
  return new Role(storage, planningApp(userApp, env), authorize, env);
}

/**
 * The app the shard plans with: as the edge does (routing/servedApp.ts). With a mode's settings
 * invalid the edge refuses every request (500), so the user's app alone is only a fallback.
 */
function planningApp(app: SlackApp, env: CoordinatorEnv): SlackApp {
  try {
    return servedApp(app, env);
  } catch {
    return app;
  }
}
