import type { AppManifestDeclaration, AssistantDeclaration, ListenerNeeds, ManifestOptions } from "./manifestTypes";

/** The two views Slack gives an AI app: the agent messaging experience, and the older assistant one. */
export type AppView = "agent_view" | "assistant_view";

/**
 * Which view the app declares, if any. The agent view when the app is declared an agent:
 * `AGENT_SESSIONS` (`options.agentView`, unset counts as true: Slack gives new apps only the agent
 * view), the app's `manifest.agent`, a listener's `agent` option or a listener of an event only
 * agents get. `agentView: false` (an existing app's `AGENT_SESSIONS=false`) keeps `app.assistant`
 * on the assistant view.
 */
export function viewOf(
  needs: readonly ListenerNeeds[],
  declared: AppManifestDeclaration,
  options: Pick<ManifestOptions, "agentView">,
): AppView | undefined {
  if ((options.agentView ?? true) || declared.agent || needs.some((n) => n.agent)) return "agent_view";
  return needs.some((n) => n.assistant) ? "assistant_view" : undefined;
}

/**
 * The view's feature in Slack's shape (slackapi/manifest-schema: `agent_view.agent_description`,
 * `assistant_view.assistant_description`, `suggested_prompts` in both): its words from
 * `app.assistant`'s declaration, over which the app's `manifest.agent` wins.
 */
export function viewFeature(
  view: AppView,
  needs: readonly ListenerNeeds[],
  declared: AppManifestDeclaration,
  name: string,
): Record<string, unknown> {
  const words: AssistantDeclaration = { ...needs.find((n) => n.assistant)?.assistant, ...declared.agent };
  const description = words.description ?? `${name}, in Slack`;
  const prompts = words.suggested_prompts ? { suggested_prompts: words.suggested_prompts } : {};
  return view === "agent_view"
    ? { agent_view: { agent_description: description, ...prompts } }
    : { assistant_view: { assistant_description: description, ...prompts } };
}
