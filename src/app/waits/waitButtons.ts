import { channelOf } from "../../inbound/channelOf";
import { isObject, optionalString } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";

/**
 * What a durable wait's buttons carry as their block's `block_id`: `durable_wait:{bucket}:{wait_id}`.
 * The bucket is the shard that holds the wait (a click is routed there however the workspace is
 * sharded); the wait id is random, so a click can name only a wait whose question it was shown.
 */
export const WAIT_BLOCK_PREFIX = "durable_wait:";

/** A click on a durable wait's question: which wait, which button, who, where. */
export interface WaitClick {
  bucket: number;
  waitId: string;
  actionId: string;
  value?: string;
  user?: string;
  channel?: string;
  /** The question's message (`container.message_ts`). */
  messageTs?: string;
  /** The thread the question is in, to answer a click on an ended wait beside it. */
  threadTs?: string;
}

/** The block_id of a wait's buttons. */
export function waitBlockId(bucket: number, waitId: string): string {
  return `${WAIT_BLOCK_PREFIX}${bucket}:${waitId}`;
}

/** The wait a `block_actions` delivery's first action clicks, if it is a wait's button. */
export function waitClickOf(inbound: Inbound): WaitClick | undefined {
  if (inbound.kind !== "interaction" || inbound.type !== "block_actions") return undefined;
  const { payload } = inbound;
  const action = Array.isArray(payload.actions) && isObject(payload.actions[0]) ? payload.actions[0] : undefined;
  const blockId = optionalString(action?.block_id);
  if (!action || !blockId?.startsWith(WAIT_BLOCK_PREFIX)) return undefined;
  const [bucket, waitId] = blockId.slice(WAIT_BLOCK_PREFIX.length).split(":");
  if (!/^\d{1,6}$/.test(bucket ?? "") || !waitId) return undefined;
  const container = isObject(payload.container) ? payload.container : {};
  const message = isObject(payload.message) ? payload.message : {};
  return {
    bucket: Number(bucket),
    waitId,
    actionId: optionalString(action.action_id) ?? "",
    value: optionalString(action.value),
    user: userOf(inbound),
    channel: channelOf(inbound) ?? optionalString(container.channel_id),
    messageTs: optionalString(container.message_ts) ?? optionalString(message.ts),
    threadTs: optionalString(container.thread_ts) ?? optionalString(message.thread_ts),
  };
}
