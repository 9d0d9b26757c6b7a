import type { EntityTypeName } from "./scopes";

/** A custom step's parameter, as Slack's manifest declares it (`functions.<id>.input_parameters`). */
export interface FunctionParameter {
  /** `string`, `number`, `boolean`, `slack#/types/user_id`, `slack#/types/channel_id`, … */
  type: string;
  /** The parameter's name; default: its key in `properties`. */
  name?: string;
  title?: string;
  description?: string;
  is_required?: boolean;
  hint?: string;
  [field: string]: unknown;
}

/** A step's inputs or outputs as Slack's manifest declares them: `properties` by name, the `required` ones named. */
export interface FunctionParameters {
  properties: Record<string, FunctionParameter>;
  required?: string[];
}

/** What `app.function(callbackId, declaration, listener)` declares of its step for the manifest (Slack's shape). */
export interface FunctionDeclaration {
  title: string;
  description?: string;
  input_parameters?: FunctionParameters;
  output_parameters?: FunctionParameters;
}

/** What `app.command(name, declaration, listener)` declares for the manifest. Default description: the command. */
export interface CommandDeclaration {
  description?: string;
  usage_hint?: string;
  should_escape?: boolean;
}

/** What `app.shortcut(callbackId, declaration, listener)` declares. Defaults: a global shortcut named by its callback id. */
export interface ShortcutDeclaration {
  name?: string;
  description?: string;
  type?: "global" | "message";
}

/** What `app.assistant(assistant, declaration)` (or `new App({ manifest: { agent } })`) declares of the agent (or assistant) view. */
export interface AssistantDeclaration {
  /** `agent_description` (Slack: at most 300 characters), or `assistant_description` on the assistant view. */
  description?: string;
  /** Slack shows at most 4. */
  suggested_prompts?: { title: string; message: string }[];
}

/** The App Home's tabs (Slack's `features.app_home`): what is set here wins over what the listeners imply. */
export interface AppHomeDeclaration {
  /** The Home tab (default: on when an `app_home_opened` listener is registered). */
  home_tab_enabled?: boolean;
  /** The Messages tab, the app's DM (default: on for a `message.im` listener, an assistant or an agent). */
  messages_tab_enabled?: boolean;
  /** Users may read but not write in the Messages tab (default: false where the tab is on). */
  messages_tab_read_only_enabled?: boolean;
}

/** The app's own part of its manifest (`new App({ manifest })`): its name, and the scopes its handlers' own calls need. */
export interface AppManifestDeclaration {
  /** `display_information.name` and the bot's display name (Slack: at most 35 characters). */
  name?: string;
  description?: string;
  background_color?: string;
  /** Bot scopes the handlers' own Web API calls need (`reactions:write`, `users:read`, …): no code reading can know them. */
  scopes?: readonly string[];
  /** User scopes asked for at install (OAuth mode). */
  userScopes?: readonly string[];
  /**
   * Bot scopes an installer may decline (Slack's `bot_optional`): listed in `bot` and marked
   * optional. A listener needing one a workspace did not grant is skipped there, logged once.
   */
  optionalScopes?: readonly string[];
  /** The agent view's words; declares the app an agent (`features.agent_view`), as `AGENT_SESSIONS` does. */
  agent?: AssistantDeclaration;
  /** The App Home's tabs, over what the listeners imply. */
  app_home?: AppHomeDeclaration;
  /** `features.unfurl_domains`: the domains whose links Slack sends as `link_shared` (at most 5); adds `links:write`. */
  unfurl_domains?: readonly string[];
}

/**
 * What one registered listener needs of the app's manifest: its bot events, its scopes, and its
 * entry (a command, a shortcut, a step), or the surface it is reached through.
 */
export interface ListenerNeeds {
  events?: readonly string[];
  scopes?: readonly string[];
  command?: { command: string } & CommandDeclaration;
  shortcut?: { callback_id: string } & ShortcutDeclaration;
  function?: { callback_id: string } & Partial<FunctionDeclaration>;
  /** Reached through interactivity (actions, views, shortcuts). */
  interactivity?: boolean;
  /** Reached through the options load URL (`app.options`). */
  options?: boolean;
  /** Part of `app.assistant`: the app shows the agent (or assistant) view. */
  assistant?: AssistantDeclaration;
  /**
   * Answers as an agent (a listener's `agent` option), or listens to an event Slack sends only to
   * an app declared an agent: the manifest declares the agent view.
   */
  agent?: boolean;
  /** Listens to `app_home_opened`: the App Home's Home tab is on. */
  homeTab?: boolean;
  /** Answers `entity_details_requested`: Work Object previews (`features.rich_previews`) for these entity types. */
  richPreviews?: EntityDetailsDeclaration;
  /** Its scopes are optional (a listener's `scopes: "optional"`): a workspace that did not grant them skips it. */
  optional?: boolean;
}

/** A listener's name (as the app registered it) and its needs. */
export interface NamedNeeds {
  name: string;
  needs: ListenerNeeds;
}

/** What a manifest is made for, beside the registrations: where the Worker is, and the mode it runs in. */
export interface ManifestOptions {
  /** The Worker's public origin, `https://…`: the Slack paths are under it. */
  url: string;
  /** OAuth mode: the redirect URL (default `{url}/slack/oauth_redirect`), and the scopes asked for at install. */
  oauth?: { redirectUrl?: string; scopes?: readonly string[]; userScopes?: readonly string[] };
  /**
   * `AGENT_SESSIONS`: the app is declared an agent — `features.agent_view`, `agent_session_stopped`
   * (the stop button), `assistant:write` and the Messages tab, whatever its listeners. Unset: true
   * (Slack gives new apps only the agent view). False (an existing app on the assistant view): an
   * agent only if a declaration or a listener says so, and `app.assistant` on `assistant_view`.
   */
  agentView?: boolean;
  /** Overrides the app's declared name. */
  name?: string;
}

/** Slack's app manifest, the part this package writes (Slack's reference: docs.slack.dev/reference/app-manifest). */
export interface AppManifest {
  _metadata?: { major_version: number; minor_version?: number };
  display_information: { name: string; description?: string; background_color?: string };
  features?: Record<string, unknown>;
  oauth_config?: {
    redirect_urls?: string[];
    /** `bot_optional`: scopes of `bot` an installer may decline (Slack's optional scopes, 2026-03). */
    scopes?: { bot?: string[]; bot_optional?: string[]; user?: string[] };
  };
  settings?: {
    event_subscriptions?: { request_url?: string; bot_events?: string[]; user_events?: string[] };
    interactivity?: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string };
    function_runtime?: string;
    org_deploy_enabled?: boolean;
    [setting: string]: unknown;
  };
  functions?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** What `app.entityDetails(listener, declaration)` declares: the entity types its unfurls use. */
export interface EntityDetailsDeclaration {
  /** `features.rich_previews.entity_types` (default: every type Slack supports). */
  entity_types?: readonly EntityTypeName[];
}
