import { describeError, log } from "../platform/log";
import { settleWithin } from "../platform/settleWithin";
import type { ShardNamespace } from "../rpc/env";
import type { BackendResponse } from "../rpc/shard";
import { workspaceShardStub } from "../rpc/shardStub";

/** Kept from the shard's wait for the RPC's way back, so the ack still leaves by the deadline. */
const RPC_MARGIN_MS = 50;

/**
 * Relay mode, after a command or interaction is recorded: the backend response to its first
 * attempt if that row is completed by `deadline`, else null (Slack then gets an empty 200 and the
 * row is delivered durably). Never throws: the record is durable, so nothing here may fail the ack.
 */
export async function waitForBackend(
  namespace: ShardNamespace,
  shard: string,
  dedupeKey: string,
  deadline: number,
): Promise<BackendResponse | null> {
  const waitMs = Math.max(0, deadline - Date.now());
  const asked = Promise.resolve(
    workspaceShardStub(namespace, shard).backendAnswer(dedupeKey, Math.max(0, waitMs - RPC_MARGIN_MS)),
  ).catch((error: unknown) => {
    log("warn", "backend answer not collected; acking empty", { dedupeKey, shard, error: describeError(error) });
    return null;
  });
  return settleWithin(asked as Promise<BackendResponse | null>, waitMs, () => null);
}
