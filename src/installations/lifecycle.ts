import type { PlannedEffect } from "../app/contract";
import { isObject } from "../inbound/fields";
import type { Inbound } from "../inbound/types";

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];

const LIFECYCLE_EVENTS = new Set(["app_uninstalled", "tokens_revoked", "team_access_granted", "team_access_revoked"]);

/** An installation lifecycle event: recorded whatever the installation's state (the store judges it). */
export function isLifecycleEvent(inbound: Inbound): boolean {
  return inbound.kind === "event" && LIFECYCLE_EVENTS.has(inbound.type);
}

/**
 * The effects the coordinator plans for itself in OAuth mode (routing/servedApp.ts): installation
 * lifecycle events change the installation store whether or not the app listens to them.
 */
export function lifecycleEffects(inbound: Inbound): PlannedEffect[] {
  if (inbound.kind !== "event") return [];
  const event = isObject(inbound.payload.event) ? inbound.payload.event : {};
  const eventTime = typeof inbound.payload.event_time === "number" ? inbound.payload.event_time : undefined;
  const base = { type: "installation" as const, installation: inbound.workspace, eventTime };
  switch (inbound.type) {
    case "app_uninstalled":
      return [{ name: "installation.uninstall", effect: { ...base, action: "uninstall" } }];
    case "tokens_revoked": {
      const tokens = isObject(event.tokens) ? event.tokens : {};
      const revoked = { bot: strings(tokens.bot), users: strings(tokens.oauth) };
      return [{ name: "installation.revoke_tokens", effect: { ...base, action: "revoke_tokens", ...revoked } }];
    }
    case "team_access_granted":
    case "team_access_revoked": {
      const change = inbound.type === "team_access_granted" ? "granted" : "revoked";
      const teams = strings(event.team_ids);
      return [{ name: "installation.team_access", effect: { ...base, action: "team_access", change, teams } }];
    }
    default:
      return [];
  }
}
