import { env } from "cloudflare:workers";
import type { SlackApp } from "../../src/app/contract/types";
import { singleWorkspace } from "../../src/auth/authorize";
import { parseEventsApi } from "../../src/inbound/parseEventsApi";
import type { Inbound } from "../../src/inbound/types";
import { ShardStorage } from "../../src/recording/shardStorage";
import { servedApp } from "../../src/routing/servedApp";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { WorkspaceShard } from "../../src/shard/workspaceShard";
import { eventCallback, slackId } from "./slackSimulator";

/**
 * A workspace shard's role over a shard's real storage (inside `runInDurableObject`), serving
 * `app` with `settings` on top of the test env, wired as the Shard wires it: recording, the stop
 * button's part, delivery with its immediate attempts. Nothing but Slack is faked.
 */
export async function workspaceShardIn(state: DurableObjectState, app: SlackApp, settings: Record<string, string> = {}) {
  const storage = new ShardStorage(state.storage, state.id.name ?? "test-shard");
  await storage.load();
  storage.migrate();
  const shardEnv = { ...(env as unknown as CoordinatorEnv), ...settings };
  return new WorkspaceShard(storage, servedApp(app, shardEnv), singleWorkspace, shardEnv);
}

/** An Events API delivery of `event` in `team`, parsed as the edge parses it (its conversation included). */
export function eventDelivery(team: string, event: Record<string, unknown>): Inbound {
  const parsed = parseEventsApi(JSON.stringify(eventCallback(event, { teamId: team, eventId: slackId("Ev") })));
  if (parsed.kind !== "inbound") throw new Error(`not a delivery: ${parsed.kind}`);
  return parsed.inbound;
}

/** The stop button clicked in `channel`'s thread `threadTs`, naming the streams Slack stopped. */
export const agentSessionStopped = (channel: string, threadTs: string, streams: string[] = []) => ({
  type: "agent_session_stopped",
  channel,
  thread_ts: threadTs,
  user: "U0000USER",
  streaming_message_ts: streams,
  event_ts: threadTs,
});

/** A promise and its resolver, for a run the test holds in the middle of its work. */
export function latch<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
