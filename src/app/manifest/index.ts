/**
 * The Slack app manifest made from the registrations: what each listener needs of it
 * (`ListenerNeeds`, declared beside `app.command`, `app.shortcut`, `app.function`, `app.assistant`,
 * a listener's `agent` and `scopes` options), which scopes (and which optional: `optionalScopes.ts`) events and the coordinator's own calls need
 * (`scopes.ts`, data), which view the app declares (`agentView.ts`: agent or assistant), its App
 * Home's tabs (`appHome.ts`), Work Objects' previews and unfurl domains (`workObjectFeatures.ts`), the manifest itself (`appManifest`, pure), and the listeners a given
 * manifest leaves unreachable.
 */
export { appManifest, slackUrls } from "./appManifest";
export {
  assistantNeeds,
  commandNeeds,
  declarationAnd,
  eventNeeds,
  functionNeeds,
  shortcutNeeds,
  withListenerOptions,
} from "./listenerNeeds";
export type {
  AppHomeDeclaration,
  AppManifest,
  AppManifestDeclaration,
  AssistantDeclaration,
  CommandDeclaration,
  EntityDetailsDeclaration,
  FunctionDeclaration,
  FunctionParameter,
  FunctionParameters,
  ListenerNeeds,
  ManifestOptions,
  NamedNeeds,
  ShortcutDeclaration,
} from "./manifestTypes";
export { ungrantedScopes } from "./optionalScopes";
export type { EntityTypeName } from "./scopes";
export { ENTITY_DETAILS_REQUESTED, ENTITY_TYPES, MESSAGE_EVENTS } from "./scopes";
export { unsubscribedListeners } from "./unsubscribed";
export { entityDetailsNeeds } from "./workObjectFeatures";
