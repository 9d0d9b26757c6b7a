import type { AppManifestDeclaration, EntityDetailsDeclaration, ListenerNeeds } from "./manifestTypes";
import { ENTITY_DETAILS_REQUESTED, ENTITY_TYPES } from "./scopes";

/**
 * Work Objects in the manifest (Slack's app manifest reference, docs.slack.dev/reference/app-manifest;
 * its Work Objects guide, docs.slack.dev/messaging/work-objects): `features.rich_previews` turns
 * Work Object previews on for the entity types the app unfurls; `features.unfurl_domains` are the
 * domains whose links Slack sends the app (`link_shared`), to unfurl with `chat.unfurl` (`links:write`).
 */

/** An `entity_details_requested` listener's needs: the event, and Work Object previews. */
export function entityDetailsNeeds(declaration: EntityDetailsDeclaration = {}): ListenerNeeds {
  return { events: [ENTITY_DETAILS_REQUESTED], richPreviews: declaration };
}

/** `features.rich_previews` (when a listener needs it) and `features.unfurl_domains` (when declared). */
export function workObjectFeatures(needs: readonly ListenerNeeds[], declared: AppManifestDeclaration) {
  const previews = needs.flatMap((n) => (n.richPreviews ? [n.richPreviews] : []));
  const declaredTypes = previews.flatMap((p) => p.entity_types ?? []);
  const entityTypes = [...new Set(declaredTypes.length ? declaredTypes : ENTITY_TYPES)].sort();
  const domains = declared.unfurl_domains ?? [];
  return {
    ...(previews.length ? { rich_previews: { is_active: true, entity_types: entityTypes } } : {}),
    ...(domains.length ? { unfurl_domains: [...domains] } : {}),
  };
}
