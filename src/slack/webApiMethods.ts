import type { Block, KnownBlock, View } from "@slack/types";
import type { SlackAPIClient } from "slack-web-api-client";
import type { EntityPresentDetailsArguments, WorkObjectUnfurls } from "./workObjects";

/**
 * Every Web API method as a typed tree — `chat.postMessage`, `users.info`,
 * `conversations.replies`, … — with the argument and answer types of slack-web-api-client
 * (what slack-edge uses). Types only: each call goes through our own client, so the outbox
 * keeps owning retries, timeouts and the classification of Slack's answers.
 * `files.uploadV2` is Slack's upload flow rather than one method; the client runs it (uploadFilesV2.ts).
 */
export type WebApiMethods = WithWorkObjects<AcceptingSlackTypes<Client>>;

type Client = Omit<SlackAPIClient, "call" | "retryHandlers">;

/** Omit over each member of a union (`chat.unfurl`'s target is `channel` + `ts`, or `unfurl_id` + `source`). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type UnfurlArguments = OmitEach<Parameters<Client["chat"]["unfurl"]>[0], "metadata"> & { metadata?: WorkObjectUnfurls };

/**
 * Work Objects typed as Slack documents them (workObjects.ts): `entity.presentDetails`'s entity (the
 * tree has it `any`), and `chat.unfurl`'s entities with their required `app_unfurl_url`.
 */
type WithWorkObjects<T extends { chat: object; entity: object }> = Omit<T, "chat" | "entity"> & {
  chat: Omit<T["chat"], "unfurl"> & { unfurl(args: UnfurlArguments): ReturnType<Client["chat"]["unfurl"]> };
  entity: Omit<T["entity"], "presentDetails"> & {
    presentDetails(args: EntityPresentDetailsArguments): ReturnType<Client["entity"]["presentDetails"]>;
  };
};

/**
 * Block Kit as `@slack/types` types it (what Bolt, the package's payload types and most apps
 * use), accepted wherever slack-web-api-client's own Block Kit types are: the two differ in
 * details (a confirm dialog's `text` may be mrkdwn in one), so an app's `KnownBlock[]` or
 * `ModalView` would not compile in `client.chat.postMessage` or `client.views.open` otherwise.
 */
type WithSlackTypes<A> = A extends object
  ? "blocks" extends keyof A
    ? "text" extends keyof A
      ? // Slack needs `text` or `blocks` (text is then the notification's fallback), as Bolt's types say.
        Omit<SlackTyped<A>, "text"> & { text?: A["text" & keyof A] }
      : SlackTyped<A>
    : SlackTyped<A>
  : A;

type SlackTyped<A> = {
  [K in keyof A]: K extends "blocks" ? A[K] | (KnownBlock | Block)[] : K extends "view" ? A[K] | View : A[K];
};

/** Every method of the tree, its arguments WithSlackTypes; answers as they were. */
type AcceptingSlackTypes<T> = T extends (...args: infer P) => infer R
  ? (...args: { [I in keyof P]: WithSlackTypes<P[I]> }) => R
  : T extends object
    ? { [K in keyof T]: AcceptingSlackTypes<T[K]> }
    : T;

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
