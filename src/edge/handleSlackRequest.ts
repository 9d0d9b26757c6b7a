import type { SlackApp } from "../app/types";
import { readSettings } from "../config";
import type { CoordinatorEnv } from "../env";
import { MalformedPayload } from "../inbound/errors";
import { parseSlackRequest } from "../inbound/parseSlackRequest";
import { describeError, log, type LogFields } from "../log";
import { shardFor } from "../routing/shardFor";
import { BodyTooLarge, readRawBody } from "./readRawBody";
import { recordWithinBudget } from "./recordWithinBudget";
import { Rejection } from "./rejection";
import { InvalidSignature, verifySignature } from "./verifySignature";

const decoder = new TextDecoder();

/** Verified, parsed and (when accepted) durably recorded — or a Rejection. */
async function answer(request: Request, env: CoordinatorEnv, app: SlackApp, facts: LogFields): Promise<Response> {
  const settings = readSettings(env);
  if (settings.signingSecrets.length === 0) throw new Error("SLACK_SIGNING_SECRET is not set");

  const timestamp = request.headers.get("x-slack-request-timestamp");
  const signature = request.headers.get("x-slack-signature");
  if (!timestamp || !signature) throw new Rejection(401, "missing Slack signature headers");

  let body: Uint8Array;
  try {
    body = await readRawBody(request);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new Rejection(413, error.message);
    throw error;
  }
  try {
    await verifySignature({ secrets: settings.signingSecrets, timestamp, signature, body, nowSeconds: Math.floor(Date.now() / 1000) });
  } catch (error) {
    if (error instanceof InvalidSignature) throw new Rejection(401, error.message);
    throw error;
  }

  let parsed;
  try {
    parsed = parseSlackRequest(decoder.decode(body), {
      contentType: request.headers.get("content-type"),
      retryNum: request.headers.get("x-slack-retry-num"),
      retryReason: request.headers.get("x-slack-retry-reason"),
    });
  } catch (error) {
    if (error instanceof MalformedPayload) throw new Rejection(400, error.message, true);
    throw error;
  }

  switch (parsed.kind) {
    case "url_verification":
      facts.outcome = "url_verification";
      return Response.json({ challenge: parsed.challenge });
    case "ssl_check":
      facts.outcome = "ssl_check";
      return new Response(null, { status: 200 });
    case "ignored":
      facts.outcome = `ignored: ${parsed.reason}`;
      return new Response(null, { status: 200 });
  }

  const { inbound } = parsed;
  inbound.receivedAt = Date.now();
  facts.dedupeKey = inbound.dedupeKey;
  facts.type = inbound.type;
  facts.retryNum = inbound.retryNum;
  // Deliberately ignored deliveries never reach a shard: nothing to store, nothing to retry.
  const plan = app.plan(inbound);
  if ("ignore" in plan) {
    facts.outcome = `ignored: ${plan.ignore}`;
    return new Response(null, { status: 200 });
  }

  // The fact key routes too, so one message seen as two events meets its twin in one shard.
  const shard = shardFor(inbound.workspace, inbound.factKey ?? inbound.dedupeKey, settings.shardBuckets);
  facts.shard = shard;
  let recorded;
  try {
    recorded = await recordWithinBudget(env.SHARD, shard, inbound, settings.ackBudgetMs);
  } catch (error) {
    // Not confirmed durable: answer non-2xx without x-slack-no-retry so Slack's retry can still save it.
    facts.error = describeError(error);
    throw new Rejection(503, "event not recorded; retry");
  }
  facts.outcome = recorded.result.verdict;
  facts.ingestAttempts = recorded.attempts;
  facts.enqueued = recorded.result.enqueued;
  const { ackBody } = recorded.result;
  return ackBody ? Response.json(ackBody) : new Response(null, { status: 200 });
}

/**
 * The Slack Request URL: Events API, slash commands and interactivity. Logs one JSON line per
 * request with its status, dedupe key, shard and ack milliseconds.
 */
export async function handleSlackRequest(request: Request, env: CoordinatorEnv, app: SlackApp): Promise<Response> {
  const started = Date.now();
  const facts: LogFields = {};
  let response: Response;
  try {
    response = await answer(request, env, app, facts);
  } catch (error) {
    if (error instanceof Rejection) {
      facts.outcome ??= error.message;
      response = error.toResponse();
    } else {
      facts.error = describeError(error);
      response = new Response("internal error", { status: 500 });
    }
  }
  log(response.status >= 500 ? "error" : "info", "slack request", { status: response.status, ...facts, ackMs: Date.now() - started });
  return response;
}
