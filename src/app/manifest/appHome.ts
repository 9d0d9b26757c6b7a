import type { AppView } from "./agentView";
import type { AppHomeDeclaration, ListenerNeeds } from "./manifestTypes";

/**
 * The App Home's tabs (`features.app_home`): the Home tab for an `app_home_opened` listener; the
 * Messages tab, where users write to the app, for a `message.im` listener and for either view (an
 * agent's conversations happen there); then what the app declares, which wins. None: no entry.
 */
export function appHomeOf(
  needs: readonly ListenerNeeds[],
  view: AppView | undefined,
  declared: AppHomeDeclaration = {},
): { app_home?: AppHomeDeclaration } {
  const messages = view !== undefined || needs.some((n) => n.events?.includes("message.im"));
  const appHome: AppHomeDeclaration = {
    ...(needs.some((n) => n.homeTab) ? { home_tab_enabled: true } : {}),
    ...(messages ? { messages_tab_enabled: true, messages_tab_read_only_enabled: false } : {}),
    ...Object.fromEntries(Object.entries(declared).filter(([, value]) => value !== undefined)),
  };
  return Object.keys(appHome).length > 0 ? { app_home: appHome } : {};
}
