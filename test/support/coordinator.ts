import { env, exports } from "cloudflare:workers";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { shardFor, shardName } from "../../src/rpc/shardFor";
import { shardStub as stubByName } from "../../src/rpc/shardStub";
import { WATCH } from "../../src/rpc/watch";
import {
  appMention,
  type Delivery,
  eventCallback,
  type SignOptions,
  signedEvent,
  slackId,
  toRequest,
} from "../../src/testing/deliveries";
import { TEST_SIGNING_SECRET } from "./secrets";
import { TEST_BINDINGS } from "./testBindings";

/** Signing options for the secret the test Worker is configured with. */
export const signedBy = (extra: Partial<SignOptions> = {}): SignOptions => ({ secret: TEST_SIGNING_SECRET, ...extra });

/** Sends a delivery to the Worker under test, as Slack would. */
export function deliver(delivery: Delivery, path = "/slack/events"): Promise<Response> {
  return exports.default.fetch(toRequest(`https://coordinator.test${path}`, delivery));
}

/**
 * Calls the test Worker directly with `overrides` on top of its env, for a request that needs
 * other settings than the rest (settings are parsed per env object, so this one is parsed anew).
 */
export async function deliverWithSettings(delivery: Delivery, overrides: Record<string, string>): Promise<Response> {
  const { default: worker } = await import("../worker");
  const request = toRequest("https://coordinator.test/slack/events", delivery) as Parameters<typeof worker.fetch>[0];
  const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return worker.fetch(request, { ...(env as unknown as CoordinatorEnv), ...overrides }, context);
}

/** A shard of its own for one test: `prefix` names it, a random suffix keeps it apart from every other. */
export function freshShard(prefix: string) {
  return env.SHARD.get(env.SHARD.idFromName(`${prefix}-${crypto.randomUUID()}`));
}

/** The shard that owns a workspace's deliveries (one bucket, as configured), found as the Worker finds it. */
export function shardStub(workspace: string, routingKey = "") {
  return stubByName(env.SHARD, shardFor(workspace, routingKey, 1));
}

/** A workspace's shard by bucket, as the operations API names it (`{workspace}/{bucket}`). */
export function bucketStub(workspace: string, bucket: number) {
  return stubByName(env.SHARD, shardName(workspace, bucket));
}

/** Receipts held by each of a workspace's buckets 0 … `buckets` − 1. */
export function receiptsByBucket(workspace: string, buckets: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: buckets }, async (_, bucket) => (await bucketStub(workspace, bucket).stats()).receipts),
  );
}

/** An operator's call of the bucket API (`/admin/workspaces/{id}/buckets`): GET, or PUT with `{"buckets": n}` as body. */
export function bucketsApi(workspace: string, init: { method?: string; body?: string } = {}): Promise<Response> {
  return exports.default.fetch(
    new Request(`https://coordinator.test/admin/workspaces/${workspace}/buckets`, {
      ...init,
      headers: { authorization: `Bearer ${TEST_BINDINGS.ADMIN_TOKEN}`, "content-type": "application/json" },
    }),
  );
}

/** Receipt and outbox counts of the shard that owns a workspace. */
export async function storedFor(workspace: string) {
  const { receipts, outbox } = await shardStub(workspace).stats();
  return { receipts, outbox };
}

/** An operator's GET of an /admin path (`token` null: without one). */
export function adminGet(path: string, token: string | null = TEST_BINDINGS.ADMIN_TOKEN): Promise<Response> {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  return exports.default.fetch(new Request(`https://coordinator.test${path}`, { headers }));
}

/** The reserved shard that runs alerts and the guard. */
export const watchStub = () => stubByName(env.SHARD, WATCH);

/** A fresh workspace per test: storage is isolated per file, not per test. */
export function newWorkspace(): string {
  return slackId("T");
}

/** A signed `app_mention` delivery for a workspace. */
export async function mentionDelivery(
  teamId: string,
  options: { eventId?: string; retryNum?: number; event?: Record<string, unknown> } = {},
) {
  const envelope = eventCallback(options.event ?? appMention(), { teamId, eventId: options.eventId });
  return { envelope, delivery: await signedEvent(envelope, signedBy({ retryNum: options.retryNum })) };
}

/** A mention as Slack sends it now; `redeliver` sends the same event again, signed anew, as Slack's retry does. */
export function retriedMention(team: string) {
  const envelope = eventCallback(appMention(), { teamId: team });
  let retries = 0;
  const send = async (retryNum?: number) =>
    (await deliver(await signedEvent(envelope, signedBy(retryNum ? { retryNum, retryReason: "http_timeout" } : {})))).status;
  return {
    ts: String((envelope.event as { ts: string }).ts),
    send: (): Promise<number> => send(),
    redeliver: (): Promise<number> => send(++retries),
  };
}
