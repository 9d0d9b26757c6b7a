import type { AppManifestDeclaration, ListenerNeeds, NamedNeeds } from "./manifestTypes";
import { COORDINATOR_SCOPES, EVENT_SCOPES, LOOKUP_SCOPES } from "./scopes";

/** The bot scopes one listener needs: its events' (Slack's events reference) and its own. */
export function scopesNeeded(needs: ListenerNeeds): string[] {
  return [...(needs.events ?? []).flatMap((event) => EVENT_SCOPES[event] ?? []), ...(needs.scopes ?? [])];
}

/**
 * The one rule for Slack's optional scopes (`oauth_config.scopes.bot_optional`, changelog
 * 2026-03-16). Optional: what the app declares so (`manifest.optionalScopes`), unless it also
 * requires it (`required`: its declared `scopes`, the install's, what the coordinator calls); and
 * what a `scopes: "optional"` listener needs, or a lookup's history scope of an app that
 * `looksUp`, unless that or another listener's events need it as well.
 */
export function optionalScopes(
  needs: readonly ListenerNeeds[],
  declared: AppManifestDeclaration,
  required: readonly string[] = [],
  looksUp = false,
): string[] {
  const explicit = new Set([...required, ...COORDINATOR_SCOPES, ...(declared.scopes ?? [])]);
  const derived = new Set(needs.filter((n) => !n.optional).flatMap(scopesNeeded));
  const implied = [...needs.filter((n) => n.optional).flatMap(scopesNeeded), ...(looksUp ? LOOKUP_SCOPES : [])];
  return [
    ...new Set([
      ...(declared.optionalScopes ?? []).filter((scope) => !explicit.has(scope)),
      ...implied.filter((scope) => !explicit.has(scope) && !derived.has(scope)),
    ]),
  ].sort();
}

/**
 * The optional scopes a listener needs that a workspace did not grant (`granted`: the scopes of
 * its install's bot token): when any, its runs there are skipped. A scope the manifest requires is
 * never asked here — an install without it is an older manifest's, whose runs go on as before.
 */
export function ungrantedScopes(
  registered: readonly NamedNeeds[],
  listener: string,
  declared: AppManifestDeclaration,
  granted: readonly string[],
): string[] {
  const own = registered.find((r) => r.name === listener)?.needs;
  if (!own) return [];
  const all = registered.map((r) => r.needs);
  const optional = new Set(optionalScopes(all, declared));
  return [...new Set(scopesNeeded(own))].filter((scope) => optional.has(scope) && !granted.includes(scope)).sort();
}
