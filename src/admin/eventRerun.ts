import type { IRequest } from "itty-router";
import type { SlackApp } from "../app/contract";
import { isObject } from "../inbound/fields";
import { RERUN_KEY, rerunDelivery } from "../inbound/reruns";
import type { InboundKind } from "../inbound/types";
import { isLifecycleEvent } from "../installations/lifecycle";
import { MalformedPayload, NotRecorded, Rejection, WorkspaceNotInstalled } from "../platform/errors";
import { log } from "../platform/log";
import { recordInbound } from "../routing/recordInbound";
import type { CoordinatorEnv } from "../rpc/env";
import { REDACTED_MARK } from "../rpc/eventStories";
import { relayMode } from "../settings";
import { findStory } from "./eventRoutes";

const KINDS: readonly string[] = ["event", "command", "interaction"];

/**
 * The re-run's idempotency key: the `Idempotency-Key` header or the body's `idempotencyKey` (the
 * same if both), else a new one — one re-run per call. 1–64 of `A-Z a-z 0-9 . _ ~ -`.
 */
async function idempotencyKeyOf(request: IRequest): Promise<string> {
  const text = await request.text();
  let body: unknown = {};
  try {
    if (text.trim() !== "") body = JSON.parse(text);
  } catch {
    throw new Rejection(400, 'the body must be empty or JSON: { "idempotencyKey"?: string }');
  }
  if (!isObject(body) || Object.keys(body).some((name) => name !== "idempotencyKey"))
    throw new Rejection(400, 'the body must be empty or { "idempotencyKey"?: string }');
  const header = request.headers.get("idempotency-key");
  const given = body.idempotencyKey ?? header ?? undefined;
  if (header !== null && given !== header)
    throw new Rejection(400, "the Idempotency-Key header and the body's idempotencyKey differ");
  if (given === undefined) return crypto.randomUUID();
  if (typeof given !== "string" || !RERUN_KEY.test(given))
    throw new Rejection(400, "an idempotency key is 1 to 64 of A-Z a-z 0-9 . _ ~ -");
  return given;
}

/**
 * POST /admin/api/events/{id}/rerun (docs/guides/operations.md "Re-running an event"): runs a
 * recorded delivery's listeners again as a new delivery, from the payload its receipt kept —
 * planned, recorded and delivered as an ingest is (recordInbound), in the original's shard, under
 * the dedupe key `{id}:rerun:{idempotency key}` (inbound/reruns.ts), so a second call with the
 * same key finds it recorded and runs nothing. 409 without a full payload, 404 unknown or pruned.
 */
export async function eventRerun(request: IRequest, env: CoordinatorEnv, app: SlackApp, id: string): Promise<Response> {
  const key = await idempotencyKeyOf(request);
  const relay = relayMode(env) !== null;
  const { shard, story } = await findStory(request, env, id);
  const { payload } = story;
  if (payload === null)
    throw new Rejection(409, `${id} kept no payload (EVENT_PAYLOADS=none when it was recorded): nothing to run again`);
  if (isObject(payload) && payload[REDACTED_MARK] === true)
    throw new Rejection(
      409,
      `${id} kept its payload redacted (EVENT_PAYLOADS=redacted): what was written is not there to run again`,
    );
  // A fact receipt carries the story of a delivery whose every effect is keyed by its message: an event.
  const kind = story.kind === "fact" ? "event" : story.kind;
  if (!KINDS.includes(kind)) throw new Rejection(409, `${id} is a ${kind}, which is not re-run`);
  let delivery: ReturnType<typeof rerunDelivery>;
  try {
    delivery = rerunDelivery(kind as InboundKind, payload, id, key, relay);
  } catch (error) {
    if (error instanceof MalformedPayload) throw new Rejection(409, `${id}'s kept payload does not parse: ${error.message}`);
    throw error;
  }
  const { inbound, raw } = delivery;
  // An uninstall or a revocation is the installation store's to judge, once: never replayed.
  if (isLifecycleEvent(inbound))
    throw new Rejection(409, `${id} is ${inbound.type}, an installation lifecycle event: not re-run`);
  // Relay mode relays the kept payload re-encoded (not Slack's bytes, which no receipt keeps).
  if (relay) inbound.raw = raw;
  let recorded: Awaited<ReturnType<typeof recordInbound>>;
  try {
    recorded = await recordInbound(env, app, inbound, shard);
  } catch (error) {
    if (error instanceof NotRecorded)
      throw new Rejection(503, `the re-run was not confirmed recorded: POST again with Idempotency-Key: ${key}`);
    if (error instanceof WorkspaceNotInstalled) throw new Rejection(409, `${id}'s workspace is not installed: ${error.message}`);
    throw error;
  }
  log("info", "event re-run", { event_id: inbound.dedupeKey, rerunOf: id, shard, type: inbound.type, verdict: recorded.verdict });
  const answer = { id: inbound.dedupeKey, rerunOf: id, shard, verdict: recorded.verdict };
  if (recorded.verdict === "ignored") return Response.json({ ...answer, reason: recorded.reason });
  return Response.json({ ...answer, enqueued: recorded.enqueued }, { status: recorded.verdict === "accepted" ? 202 : 200 });
}
