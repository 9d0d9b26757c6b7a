import type { RunEffect, SlackApp } from "../app/contract";
import { BoundedMap } from "../platform/boundedMap";
import { log } from "../platform/log";

/** Workspaces (and listeners) already told of: one log line each per isolate, however many events come. */
const told = new BoundedMap<string, true>(1_000);

/**
 * Whether `effect`'s listener needs an optional scope its workspace did not grant (`granted`: the
 * bot token's scopes as its install recorded them; undefined when unknown, as with SLACK_BOT_TOKEN):
 * then the run is skipped, delivered as is, and said once per workspace and listener — Slack would
 * refuse its calls `missing_scope` anyway. A run of `app.error` (a failure's) is never skipped.
 */
export function skippedForScopes(app: SlackApp, effect: RunEffect, granted: readonly string[] | undefined): boolean {
  if (!granted || effect.failure) return false;
  const ungranted = app.ungrantedScopes?.(effect.listener, granted) ?? [];
  if (ungranted.length === 0) return false;
  const { workspace } = effect.inbound;
  const said = `${workspace} ${effect.listener}`;
  if (!told.has(said)) {
    told.set(said, true);
    log("info", "listener skipped: the workspace did not grant the optional scopes it needs (said once per workspace)", {
      workspace,
      listener: effect.listener,
      scopes: ungranted.join(","),
    });
  }
  return true;
}
