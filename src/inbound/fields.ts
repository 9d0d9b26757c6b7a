import { MalformedPayload } from "../platform/errors";

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function requireString(source: Json, field: string, where: string): string {
  const value = optionalString(source[field]);
  if (value === undefined) throw new MalformedPayload(`${where}: missing "${field}"`);
  return value;
}

/**
 * The workspace a delivery belongs to: org-wide installs are keyed by enterprise. An org install's
 * org-wide events (`tokens_revoked`, `app_uninstalled`, `team_access_granted`) name only the
 * enterprise, without `is_enterprise_install`: the enterprise is then the workspace too.
 */
export function workspaceOf(
  ids: { teamId?: string; enterpriseId?: string; isEnterpriseInstall: boolean },
  where: string,
): string {
  const workspace = ids.isEnterpriseInstall ? ids.enterpriseId : (ids.teamId ?? ids.enterpriseId);
  if (!workspace) throw new MalformedPayload(`${where}: missing team or enterprise id`);
  return workspace;
}

/**
 * Deepest nesting of objects and arrays accepted. Slack's payloads (blocks inside attachments
 * inside a `message_changed`) stay far below it; a deeper one could never cross the RPC to a
 * shard (structured clone runs out of stack), so it is refused here as unrecordable.
 */
export const MAX_JSON_NESTING = 100;

/** Throws MalformedPayload when `text` nests objects/arrays deeper than `max`; one pass, strings skipped. */
function assertNestingWithin(text: string, max: number, where: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) throw new MalformedPayload(`${where}: nested deeper than ${max} levels`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

export function parseJson(text: string, where: string): Json {
  assertNestingWithin(text, MAX_JSON_NESTING, where);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedPayload(`${where}: body is not JSON`);
  }
  if (!isObject(value)) throw new MalformedPayload(`${where}: body is not a JSON object`);
  return value;
}
