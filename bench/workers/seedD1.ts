import { SlackAPIClient } from "slack-edge";
import {
  d1Usage,
  ensureSchema,
  type OutboxRow,
  pruneBefore,
  recordIntent,
  type SlackEnvelope,
  sweepOutbox,
} from "./seedD1Outbox";
import { verifiedBody } from "./verifiedBody";

interface SeedEnv {
  DB: D1Database;
  SLACK_SIGNING_SECRET: string;
  SLACK_BOT_TOKEN: string;
  /** The fake Web API on 127.0.0.1. */
  SLACK_API_URL: string;
}

/** Headroom inside Slack's 3 seconds for the durable write; past it, no ack (a retry can still save the event). */
const ACK_BUDGET_MS = 2_000;
/** Receipts (and done outbox rows) older than this go at the next cron tick. */
const RETENTION_MS = 24 * 3_600_000;

/** Inbound deliveries to /slack/events, and cron ticks, this isolate has handled. */
const invocations = { requests: 0, cronTicks: 0 };

/** The example app's work, as slack-edge-same-work does it: a placeholder, then chat.update of it. */
async function performEffect(env: SeedEnv, row: OutboxRow): Promise<void> {
  const event = JSON.parse(row.payload) as { channel: string; ts: string; thread_ts?: string; user: string };
  const client = new SlackAPIClient(env.SLACK_BOT_TOKEN, { baseUrl: env.SLACK_API_URL });
  const placeholder = await client.chat.postMessage({
    channel: event.channel,
    thread_ts: event.thread_ts ?? event.ts,
    text: "Working on it…",
  });
  await client.chat.update({
    channel: event.channel,
    ts: String(placeholder.ts),
    text: `Hi <@${event.user}>, I got your mention.`,
  });
}

const sweep = (env: SeedEnv) =>
  sweepOutbox(
    env.DB,
    (row) => performEffect(env, row),
    () => Date.now(),
  );

/**
 * The seeds' own design (bench subject "seed-d1"): a Worker that records a receipt and an outbox
 * row in D1 before the ack, delivers in `ctx.waitUntil` with the same claim-and-deliver loop the
 * cron tick runs, and sweeps leftovers (and prunes a day's receipts) on its Cron Trigger. Written
 * from the seed article's description, not copied; loopback only (SLACK_API_URL is the fake).
 */
export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    // Bench-only: what this isolate counted (no Worker of the product has such a route).
    if (pathname === "/bench/usage") return Response.json({ ...invocations, d1: d1Usage });
    if (pathname !== "/slack/events") return new Response("not found", { status: 404 });
    invocations.requests++;
    const body = await verifiedBody(request, env.SLACK_SIGNING_SECRET);
    if (!body) return new Response("Unauthorized", { status: 401 });
    const payload = JSON.parse(new TextDecoder().decode(body)) as SlackEnvelope & { type: string; challenge?: string };
    if (payload.type === "url_verification") return Response.json({ challenge: payload.challenge });
    if (payload.type !== "event_callback") return new Response(null, { status: 200 });

    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("pre-ack budget exceeded")), ACK_BUDGET_MS);
    });
    let firstDelivery: boolean;
    try {
      await ensureSchema(env.DB);
      firstDelivery = await Promise.race([recordIntent(env.DB, payload, Date.now()), budget]);
    } catch (error) {
      console.error(`no durable intent recorded: ${String(error)}`);
      return new Response("retry", { status: 500 });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    // Best effort: the cron sweep owns the guarantee.
    if (firstDelivery) ctx.waitUntil(sweep(env).catch((error) => console.error(`immediate delivery failed: ${String(error)}`)));
    return new Response(null, { status: 200 });
  },

  async scheduled(controller, env) {
    invocations.cronTicks++;
    await ensureSchema(env.DB);
    await sweep(env);
    await pruneBefore(env.DB, controller.scheduledTime - RETENTION_MS);
  },
} satisfies ExportedHandler<SeedEnv>;
