import type { SlackApp } from "../app/types";
import type { Authorize } from "../auth/authorize";
import type { ShardSettings } from "../config";
import { kindOf } from "../effects/registry";
import type { Effect } from "../effects/types";
import type { CoordinatorEnv } from "../env";
import { createSlackClient } from "../slack/client";
import type { ClaimedRow, Outbox } from "./outbox";
import { stepFor } from "./stepCheckpoints";

export interface PerformDeps<E extends Pick<CoordinatorEnv, "INSTALLATIONS">> {
  app: SlackApp;
  authorize: Authorize<E>;
  env: E;
  settings: ShardSettings;
  outbox: Outbox;
}

/**
 * How a shard performs one row once: the effect's kind, a client with the credentials of the
 * row's workspace (asked of `authorize` only if the attempt calls the Web API) and the row's
 * handles, and `step()` fenced by the attempt's lease.
 */
export function rowPerformer<E extends Pick<CoordinatorEnv, "INSTALLATIONS">>({
  app,
  authorize,
  env,
  settings,
  outbox,
}: PerformDeps<E>) {
  return (effect: Effect, row: ClaimedRow, token: string): Promise<void> => {
    const kind = kindOf(effect);
    const client = createSlackClient({
      apiUrl: settings.apiUrl,
      timeoutMs: settings.delivery.timeoutMs,
      responseUrlOrigins: settings.responseUrlOrigins,
      handles: {
        recordedAt: row.created_at,
        attempts: row.attempts,
        responseUrlUsesBefore: kind.attemptUsesResponseUrl ? row.attempts : 0,
      },
      token: async () => (await authorize({ workspace: row.workspace }, env)).botToken,
    });
    return kind.perform(effect, {
      app,
      client,
      step: stepFor(outbox, row.idempotency_key, token),
      attempts: row.attempts,
      handlerMaxAttempts: settings.handlerMaxAttempts,
      installations: env.INSTALLATIONS,
      relay: settings.relay,
      recordedAt: row.created_at,
    });
  };
}
