import { type AuthorizeResult, SlackAPIClient, SlackApp } from "slack-edge";

interface SlackEdgeEnv {
  SLACK_SIGNING_SECRET: string;
  SLACK_BOT_TOKEN: string;
  /** The fake Web API; slack-edge's own clients have no base-URL option (see below). */
  SLACK_API_URL: string;
  /**
   * `placeholder-update`: the same work as the coordinator's example app — a placeholder
   * `chat.postMessage`, then `chat.update` of it with the answer (the "slack-edge-same-work"
   * subject). Unset: one `chat.postMessage`, as slack-edge's README shows.
   */
  SLACK_EDGE_WORK?: string;
}

// Defence in depth at the cost of a URL parse: whatever slack-edge or its client defaults to,
// a fetch to anything but loopback fails here and is logged (the bench counts those lines).
const loopbackFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname !== "127.0.0.1") {
    console.error(JSON.stringify({ level: "error", msg: "outbound blocked", host: url.hostname }));
    return Promise.reject(new TypeError(`outbound blocked by the bench: ${url.hostname}`));
  }
  return loopbackFetch(input, init);
};

/**
 * What Workers users pick today: slack-edge acking at once and replying to `app_mention` in its
 * lazy handler (`ctx.waitUntil`), as its README shows. Two deliberate departures, both so that
 * nothing can reach slack.com and both in slack-edge's favour:
 * - `authorize` returns a fixed bot identity; the default calls `auth.test` on slack.com before
 *   every ack (an extra round trip this comparison leaves out);
 * - the reply uses a `SlackAPIClient` with `baseUrl` set to the fake, because the client
 *   slack-edge puts in `context` is built without one.
 * (bench/workers/loopbackGuard.ts would catch the rest, but the bench runs without it: its extra
 * hop per outbound call costs ~0.2 ms of CPU, which would distort the comparison.)
 */
function buildApp(env: SlackEdgeEnv): SlackApp<SlackEdgeEnv> {
  const identity: AuthorizeResult = {
    botToken: env.SLACK_BOT_TOKEN,
    botId: "B0000BOT",
    botUserId: "U0000BOT",
    botScopes: ["chat:write"],
  };
  const client = new SlackAPIClient(env.SLACK_BOT_TOKEN, { baseUrl: env.SLACK_API_URL });
  const app = new SlackApp({ env, authorize: async () => identity });
  app.event("app_mention", async ({ payload }) => {
    const thread_ts = payload.thread_ts ?? payload.ts;
    if (env.SLACK_EDGE_WORK !== "placeholder-update") {
      await client.chat.postMessage({ channel: payload.channel, thread_ts, text: `Hi <@${payload.user}>, I got your mention.` });
      return;
    }
    const placeholder = await client.chat.postMessage({ channel: payload.channel, thread_ts, text: "Working on it…" });
    await client.chat.update({
      channel: payload.channel,
      ts: String(placeholder.ts),
      text: `Hi <@${payload.user}>, I got your mention.`,
    });
  });
  return app;
}

let app: SlackApp<SlackEdgeEnv> | undefined;

export default {
  fetch(request, env, ctx) {
    app ??= buildApp(env);
    return app.run(request, ctx);
  },
} satisfies ExportedHandler<SlackEdgeEnv>;
