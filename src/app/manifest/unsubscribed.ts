import type { AppManifest, ListenerNeeds, NamedNeeds } from "./manifestTypes";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

const namesIn = (list: unknown, field: string) =>
  new Set(
    Array.isArray(list) ? list.flatMap((item) => (isObject(item) && typeof item[field] === "string" ? [item[field]] : [])) : [],
  );

/** Whether Slack, configured by `manifest`, can reach a listener with these needs at all. */
function reachable(needs: ListenerNeeds, manifest: AppManifest): boolean {
  const settings = isObject(manifest.settings) ? manifest.settings : {};
  const features = isObject(manifest.features) ? manifest.features : {};
  const subscribed = new Set(settings.event_subscriptions?.bot_events ?? []);
  const interactivity = settings.interactivity;
  if (needs.events?.length && !needs.events.some((event) => subscribed.has(event))) return false;
  if (needs.command && !namesIn(features.slash_commands, "command").has(needs.command.command)) return false;
  if (needs.shortcut && !namesIn(features.shortcuts, "callback_id").has(needs.shortcut.callback_id)) return false;
  if (needs.function && !(isObject(manifest.functions) && needs.function.callback_id in manifest.functions)) return false;
  if ((needs.interactivity || needs.shortcut || needs.options) && interactivity?.is_enabled !== true) return false;
  if (needs.options && !interactivity?.message_menu_options_url) return false;
  return true;
}

/**
 * The registered listeners that the app's manifest (as given) leaves unreachable: an event none
 * of whose bot events it subscribes to, a command, shortcut or step it does not declare,
 * interactivity or an options load URL it does not enable. Slack would never call them.
 */
export function unsubscribedListeners(registered: readonly NamedNeeds[], manifest: AppManifest): string[] {
  return registered.filter(({ needs }) => !reachable(needs, manifest)).map(({ name }) => name);
}
