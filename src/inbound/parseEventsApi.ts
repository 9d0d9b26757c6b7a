import { MalformedPayload } from "../platform/errors";
import { unkeyedId } from "./bodyDigest";
import { eventConversation } from "./conversation";
import { isObject, optionalString, parseJson, requireString, workspaceOf } from "./fields";
import type { Parsed } from "./types";

/** Message-like events carry a fact identity: the same message can arrive as several events. */
function factKeyOf(teamId: string, event: Record<string, unknown>): string | undefined {
  const channel = optionalString(event.channel);
  const ts = optionalString(event.ts);
  return channel && ts ? `${teamId}:${channel}:${ts}` : undefined;
}

/**
 * The time an event is routed by: its message's `ts` when it has a message fact (both events of
 * one message carry it), else `event_time`; undefined when neither is a number.
 */
function routedAtOf(envelope: Record<string, unknown>, event: Record<string, unknown>): number | undefined {
  const ts = optionalString(event.channel) ? Number(optionalString(event.ts)) : Number.NaN;
  const seconds = Number.isFinite(ts) && ts > 0 ? ts : Number(envelope.event_time);
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds * 1000) : undefined;
}

/**
 * An envelope the coordinator does not act on (`app_rate_limited`, types it does not know), as
 * an inbound for relay mode to forward (it carries no id: see unkeyedId).
 */
function forwardedEnvelope(type: string, envelope: Record<string, unknown>, body: string): Parsed {
  const ids = {
    teamId: optionalString(envelope.team_id),
    enterpriseId: optionalString(envelope.enterprise_id),
    isEnterpriseInstall: envelope.is_enterprise_install === true,
  };
  if (!ids.teamId && !ids.enterpriseId) return { kind: "ignored", reason: `envelope ${type} (no workspace to record it under)` };
  return {
    kind: "inbound",
    inbound: {
      kind: "event",
      dedupeKey: unkeyedId(type, body),
      workspace: workspaceOf(ids, type),
      ...ids,
      type,
      payload: envelope,
    },
  };
}

/**
 * The notice in an `app_rate_limited` envelope: Slack stopped sending a workspace's events for a
 * minute. Undefined for any other envelope, or one without a workspace.
 */
export function appRateLimitedOf(envelope: Record<string, unknown>): { workspace: string; minute: number } | undefined {
  if (envelope.type !== "app_rate_limited") return undefined;
  const workspace = optionalString(envelope.team_id) ?? optionalString(envelope.enterprise_id);
  if (!workspace) return undefined;
  return { workspace, minute: Number(envelope.minute_rate_limited) };
}

/** Events API (JSON body): `url_verification`, `event_callback`, and envelopes only relayed (`relayAll`) or logged. */
export function parseEventsApi(body: string, relayAll = false): Parsed {
  const envelope = parseJson(body, "events api");
  const type = requireString(envelope, "type", "events api");

  if (type === "url_verification") {
    return { kind: "url_verification", challenge: requireString(envelope, "challenge", "url_verification") };
  }
  if (type !== "event_callback") {
    if (relayAll) return forwardedEnvelope(type, envelope, body);
    const limited = appRateLimitedOf(envelope);
    if (limited) return { kind: "app_rate_limited", ...limited };
    // app_rate_limited and envelope types we do not know yet: a 200 costs nothing and an
    // error would only spend Slack's retries on a payload that cannot change.
    return { kind: "ignored", reason: `envelope ${type}` };
  }

  const dedupeKey = requireString(envelope, "event_id", "event_callback");
  const event = envelope.event;
  if (!isObject(event)) throw new MalformedPayload('event_callback: missing "event"');
  const eventType = requireString(event, "type", "event_callback event");

  const authorization =
    Array.isArray(envelope.authorizations) && isObject(envelope.authorizations[0]) ? envelope.authorizations[0] : {};
  // The installation that receives the event is its authorization's, as Bolt resolves it: in a
  // shared channel (Slack Connect) the envelope's team_id can be the other organisation's.
  const isEnterpriseInstall =
    typeof authorization.is_enterprise_install === "boolean"
      ? authorization.is_enterprise_install
      : envelope.is_enterprise_install === true;
  const enterpriseId = optionalString(authorization.enterprise_id) ?? optionalString(envelope.enterprise_id);
  // Org-wide installs get envelopes without a team_id (team_access_granted, …): the workspace is
  // then the enterprise; only a delivery with neither id is malformed (workspaceOf).
  const teamId = optionalString(authorization.team_id) ?? optionalString(envelope.team_id);
  const ids = { teamId, enterpriseId, isEnterpriseInstall };
  const workspace = workspaceOf(ids, "event_callback");

  return {
    kind: "inbound",
    inbound: {
      kind: "event",
      dedupeKey,
      workspace,
      ...ids,
      type: eventType,
      factKey: factKeyOf(teamId ?? workspace, event),
      conversation: eventConversation(teamId ?? workspace, event),
      routedAt: routedAtOf(envelope, event),
      payload: envelope,
    },
  };
}
