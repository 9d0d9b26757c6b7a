import { describeError, log } from "../platform/log";
import type { CoordinatorEnv } from "../rpc/env";
import { watchStub } from "../rpc/shardStub";
import type { AppRateLimited } from "../rpc/watch";

/**
 * Slack's `app_rate_limited` envelope: it stopped sending a workspace's events for a minute (more
 * than 30,000 in an hour), and will not send them later. Logged here, and told to the watch after
 * the ack (in `waitUntil`), which counts it and alerts once per workspace and minute.
 */
export function noticeAppRateLimited(
  notice: AppRateLimited,
  env: CoordinatorEnv,
  ctx: Pick<ExecutionContext, "waitUntil">,
): void {
  log("warn", "app_rate_limited: Slack stopped sending this workspace's events for a minute", { ...notice });
  ctx.waitUntil(
    Promise.resolve(watchStub(env.SHARD).appRateLimited(notice)).catch((error: unknown) =>
      log("error", "app_rate_limited not told to the watch", { ...notice, error: describeError(error) }),
    ),
  );
}
