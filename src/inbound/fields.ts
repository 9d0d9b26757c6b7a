import { MalformedPayload } from "./errors";

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

/** The workspace a delivery belongs to: org-wide installs are keyed by enterprise. */
export function workspaceOf(ids: { teamId?: string; enterpriseId?: string; isEnterpriseInstall: boolean }, where: string): string {
  const workspace = ids.isEnterpriseInstall ? ids.enterpriseId : ids.teamId;
  if (!workspace) throw new MalformedPayload(`${where}: missing team or enterprise id`);
  return workspace;
}

export function parseJson(text: string, where: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedPayload(`${where}: body is not JSON`);
  }
  if (!isObject(value)) throw new MalformedPayload(`${where}: body is not a JSON object`);
  return value;
}
