import { type CallOutcome, webApiDestination } from "../alerts/outcomes";
import type { SlackApp } from "../app/types";
import type { Authorization, Authorize } from "../auth/authorize";
import type { DeliverySettings } from "../config";
import { kindOf } from "../effects/registry";
import type { Effect } from "../effects/types";
import type { CoordinatorEnv } from "../env";
import { SlackApiError } from "../errors";
import { describeError, log } from "../log";
import { callPacing, type KeeperOf } from "../pacing/pacing";
import type { BackendAnswers } from "../relay/backendAnswers";
import { TOKEN_REJECTIONS } from "../slack/classifyAnswer";
import { createSlackClient } from "../slack/client";
import type { ClaimedRow, Outbox } from "./outbox";
import { stepFor } from "./stepCheckpoints";

export interface PerformDeps<E extends Pick<CoordinatorEnv, "INSTALLATIONS">> {
  /** Told how each request of an attempt went, with the row's key (alerts; see alerts/deliveryReports.ts). */
  observe?(outcome: CallOutcome, key: string): void;
  app: SlackApp;
  authorize: Authorize<E>;
  env: E;
  settings: DeliverySettings;
  outbox: Outbox;
  /** Relay mode: where a first attempt leaves the backend's answer for an edge that waits for it. */
  backendAnswers?: BackendAnswers;
  /** ALERT_WEBHOOK_URL, for the coordinator's own alert effects. */
  alertWebhookUrl?: string;
  /** Who keeps each rate-limit bucket (src/pacing/), when SLACK_PACING is on. */
  pacing?: KeeperOf;
  /** Called in the turn a step checkpoint was written (other writes may share its commit). */
  afterStep?(): void;
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
  backendAnswers,
  alertWebhookUrl,
  observe: report = () => {},
  pacing,
  afterStep,
}: PerformDeps<E>) {
  return (effect: Effect, row: ClaimedRow, token: string): Promise<void> => {
    const kind = kindOf(effect);
    const key = row.idempotency_key;
    const observe = (outcome: CallOutcome) => report(outcome, key);
    let authorization: Authorization | undefined;
    const client = createSlackClient({
      apiUrl: settings.apiUrl,
      timeoutMs: settings.delivery.timeoutMs,
      responseUrlOrigins: settings.responseUrlOrigins,
      handles: {
        recordedAt: row.created_at,
        attempts: row.attempts,
        responseUrlUsesBefore: kind.attemptUsesResponseUrl ? row.attempts : 0,
      },
      observe: (method, ok, error) => observe(webApiDestination(row.workspace, method, ok, error)),
      pacing: pacing && callPacing(pacing, row.workspace, key),
      token: async () => {
        authorization = await authorize({ workspace: row.workspace }, env);
        return authorization.botToken;
      },
    });
    const performed = kind.perform(effect, {
      app,
      client,
      step: stepFor(outbox, key, token, row.noCheckpointsUntil, afterStep),
      attempts: row.attempts,
      handlerMaxAttempts: settings.handlerMaxAttempts,
      installations: env.INSTALLATIONS,
      relay: settings.relay,
      recordedAt: row.created_at,
      observe,
      alertWebhookUrl,
      answer: backendAnswers?.wants(key) ? (answer) => backendAnswers.offer(key, answer) : undefined,
    });
    return performed.catch(async (error: unknown) => {
      // Slack refused the token itself: say so to whoever issued it, then fail as usual (parked).
      if (error instanceof SlackApiError && error.code !== undefined && TOKEN_REJECTIONS.has(error.code)) {
        try {
          await authorization?.onRejected?.(error.code);
        } catch (problem) {
          log("warn", "token rejection not reported", { key, error: describeError(problem) });
        }
      }
      throw error;
    });
  };
}
