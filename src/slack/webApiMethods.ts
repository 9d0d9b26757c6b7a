import type { SlackAPIClient } from "slack-web-api-client";

/**
 * Every Web API method as a typed tree — `chat.postMessage`, `users.info`,
 * `conversations.replies`, … — with the argument and answer types of slack-web-api-client
 * (what slack-edge uses). Types only: each call goes through our own client, so the outbox
 * keeps owning retries, timeouts and the classification of Slack's answers.
 * `files.uploadV2` is Slack's upload flow rather than one method; the client runs it (uploadFilesV2.ts).
 */
export type WebApiMethods = Omit<SlackAPIClient, "call" | "retryHandlers">;

type Call = (method: string, body: Record<string, unknown>) => Promise<unknown>;

/** Names a method tree must never answer: `await client` must not find a `then`, nor JSON a `toJSON`. */
const NOT_METHODS = new Set(["then", "catch", "finally", "toJSON", "constructor", "valueOf", "toString"]);

/** `chat` → `chat.postMessage` → called: one Web API call named by the path. */
function methodAt(call: Call, path: string): unknown {
  return new Proxy(() => {}, {
    get: (target, key) => {
      // bind/call/apply stay a function's own, so wrappers (`fn.bind(…)`, `fn.apply(…)`) still call the method.
      if (key === "bind" || key === "call" || key === "apply") return Reflect.get(target, key);
      return typeof key === "string" && !NOT_METHODS.has(key) ? methodAt(call, `${path}.${key}`) : undefined;
    },
    apply: (_target, _self, args: unknown[]) => call(path, (args[0] as Record<string, unknown> | undefined) ?? {}),
  });
}

/** Adds the typed method tree to a client that can `call(method, body)`; its own members stay as they are. */
export function withWebApiMethods<C extends { call: Call }>(client: C): C & WebApiMethods {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (typeof key !== "string" || key in target || NOT_METHODS.has(key)) return Reflect.get(target, key, receiver);
      return methodAt((method, body) => target.call(method, body), key);
    },
  }) as C & WebApiMethods;
}
