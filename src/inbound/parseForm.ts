import { MalformedPayload } from "../platform/errors";
import { unkeyedId } from "./bodyDigest";
import { interactionConversation } from "./conversation";
import { isObject, optionalString, parseJson, requireString, workspaceOf } from "./fields";
import type { Parsed } from "./types";

/** Interaction types this coordinator accepts; others only relay mode forwards. */
const INTERACTIONS = new Set([
  "block_actions",
  "view_submission",
  "view_closed",
  "shortcut",
  "message_action",
  "block_suggestion",
]);
/** Accepted types that carry no id: an options load (its ack body is `app.options`' options, given at the edge). */
const UNKEYED = new Set(["block_suggestion"]);

/** Slash commands: form fields, one invocation per `trigger_id`. */
function parseSlashCommand(form: URLSearchParams): Parsed {
  const fields = Object.fromEntries(form);
  const command = requireString(fields, "command", "slash command");
  const teamId = requireString(fields, "team_id", "slash command");
  const enterpriseId = optionalString(fields.enterprise_id);
  const ids = { teamId, enterpriseId, isEnterpriseInstall: fields.is_enterprise_install === "true" };
  return {
    kind: "inbound",
    inbound: {
      kind: "command",
      dedupeKey: requireString(fields, "trigger_id", "slash command"),
      workspace: workspaceOf(ids, "slash command"),
      ...ids,
      type: command,
      payload: fields,
    },
  };
}

/**
 * Interactivity: `payload=` holding JSON. `view_closed` has no trigger_id; a view closes once.
 * Types only relay mode forwards (`relayAll`) may have none either (see unkeyedId).
 */
function parseInteraction(json: string, relayAll: boolean, timestamp?: string | null): Parsed {
  const payload = parseJson(json, "interaction payload");
  const type = requireString(payload, "type", "interaction");
  const known = INTERACTIONS.has(type);
  if (!known && !relayAll) return { kind: "ignored", reason: `interaction ${type}` };

  const team = isObject(payload.team) ? payload.team : {};
  const enterprise = isObject(payload.enterprise) ? payload.enterprise : {};
  // A view opened in another workspace of an org (shared channels, Grid) belongs to the
  // installation that opened it, as Bolt resolves it: `view.app_installed_team_id` first.
  const view = isObject(payload.view) ? payload.view : {};
  const ids = {
    teamId: optionalString(view.app_installed_team_id) ?? optionalString(team.id),
    enterpriseId: optionalString(enterprise.id),
    isEnterpriseInstall: payload.is_enterprise_install === true,
  };
  // A custom step's interactions may carry only `interactivity.interactivity_pointer`, which, like
  // trigger_id, names one invocation.
  const interactivity = isObject(payload.interactivity) ? payload.interactivity : {};
  let dedupeKey = optionalString(payload.trigger_id) ?? optionalString(interactivity.interactivity_pointer);
  if (!dedupeKey && type === "view_closed" && isObject(payload.view)) {
    dedupeKey = `view_closed:${requireString(payload.view, "id", "view_closed view")}`;
  }
  if (!dedupeKey && (!known || UNKEYED.has(type))) dedupeKey = unkeyedId(type, json, timestamp);
  if (!dedupeKey) throw new MalformedPayload(`interaction ${type}: missing "trigger_id"`);
  const workspace = workspaceOf(ids, `interaction ${type}`);

  return {
    kind: "inbound",
    inbound: {
      kind: "interaction",
      dedupeKey,
      workspace,
      ...ids,
      type,
      conversation: interactionConversation(ids.teamId ?? workspace, payload),
      payload,
    },
  };
}

/** Form-encoded bodies: interactivity (`payload=`), `ssl_check`, or a slash command. */
export function parseForm(body: string, relayAll = false, timestamp?: string | null): Parsed {
  const form = new URLSearchParams(body);
  const payload = form.get("payload");
  if (payload !== null) return parseInteraction(payload, relayAll, timestamp);
  if (form.get("ssl_check") === "1") return { kind: "ssl_check" };
  return parseSlashCommand(form);
}
