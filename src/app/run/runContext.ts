import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { HandlerMisuse } from "../../platform/errors";
import type { AckBody } from "../contract";
import type { RunContext } from "../listeners";
import { ownBotUser } from "../listeners";

export function runContext(inbound: Inbound, matches: RegExpMatchArray | undefined, userToken?: string): RunContext {
  const { teamId, enterpriseId, retryNum, retryReason } = inbound;
  const botUserId = ownBotUser(inbound);
  return { teamId, enterpriseId, botUserId, userId: userOf(inbound), userToken, retryNum, retryReason, matches };
}

/**
 * `ack` in a run, for Bolt-shaped code: the coordinator acked when the delivery was recorded, so
 * `ack()` does nothing; a body can no longer reach Slack, which no retry cures.
 */
export async function ackInRun(body?: AckBody | string): Promise<void> {
  if (body === undefined) return;
  throw new HandlerMisuse(
    "ack(body) in run comes too late: Slack was answered when the delivery was recorded; answer with a body from the ack phase ({ ack: ({ … }) => body, run })",
  );
}
