import { env, exports } from "cloudflare:workers";
import { shardFor } from "../../src/routing/shardFor";
import { appMention, eventCallback, signedEvent, slackId, toRequest, type Delivery, type SignOptions } from "./slackSimulator";
import { TEST_SIGNING_SECRET } from "./secrets";

/** Signing options for the secret the test Worker is configured with. */
export const signedBy = (extra: Partial<SignOptions> = {}): SignOptions => ({ secret: TEST_SIGNING_SECRET, ...extra });

/** Sends a delivery to the Worker under test, as Slack would. */
export function deliver(delivery: Delivery, path = "/slack/events"): Promise<Response> {
  return exports.default.fetch(toRequest(`https://coordinator.test${path}`, delivery));
}

export function shardStub(workspace: string, dedupeKey = "") {
  return env.SHARD.get(env.SHARD.idFromName(shardFor(workspace, dedupeKey, 1)));
}

/** Receipt and outbox counts of the shard that owns a workspace (one bucket, as configured). */
export async function storedFor(workspace: string) {
  const { receipts, outbox } = await shardStub(workspace).stats();
  return { receipts, outbox };
}

/** A fresh workspace per test: storage is isolated per file, not per test. */
export function newWorkspace(): string {
  return slackId("T");
}

/** A signed `app_mention` delivery for a workspace. */
export async function mentionDelivery(teamId: string, options: { eventId?: string; retryNum?: number; event?: Record<string, unknown> } = {}) {
  const envelope = eventCallback(options.event ?? appMention(), { teamId, eventId: options.eventId });
  return { envelope, delivery: await signedEvent(envelope, signedBy({ retryNum: options.retryNum })) };
}
