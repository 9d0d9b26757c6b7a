import type { SlackWebClient } from "../../slack/client";
import type { RunClient } from "../listeners";
import type { SayStream } from "../streams";

/**
 * A run's `client`, with Bolt 5's `client.chatStream(args)`: the same durable streamer as
 * `sayStream(args)` (checkpointed, continued by a retried run), to the channel and thread given.
 * Everything else is the client itself: the proxy only adds the method.
 */
export function runClientOf(client: SlackWebClient, sayStream: SayStream): RunClient {
  const chatStream: RunClient["chatStream"] = (args) => sayStream(args);
  return new Proxy(client, {
    // `target` as receiver: the client's own state (its token, its response_url uses) stays on it.
    get: (target, key) => (key === "chatStream" ? chatStream : Reflect.get(target, key, target)),
  }) as RunClient;
}
