import { type AppView, viewFeature, viewOf } from "./agentView";
import { appHomeOf } from "./appHome";
import type {
  AppManifest,
  AppManifestDeclaration,
  FunctionParameters,
  ListenerNeeds,
  ManifestOptions,
  NamedNeeds,
} from "./manifestTypes";
import { optionalScopes } from "./optionalScopes";
import {
  AGENT_VIEW_EVENTS,
  ASSISTANT_SCOPES,
  COMMANDS_SCOPE,
  COORDINATOR_SCOPES,
  EVENT_SCOPES,
  OAUTH_EVENTS,
  UNFURL_SCOPES,
} from "./scopes";
import { workObjectFeatures } from "./workObjectFeatures";

/** Where Slack sends each surface: the coordinator's paths (docs/reference/endpoints.md), under the Worker's origin. */
export function slackUrls(url: string) {
  const origin = url.replace(/\/+$/, "");
  return {
    events: `${origin}/slack/events`,
    commands: `${origin}/slack/commands`,
    interactivity: `${origin}/slack/interactivity`,
    oauthRedirect: `${origin}/slack/oauth_redirect`,
  };
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** A step's parameters as Slack's manifest wants them: each with its `name`, `required` listed. */
function parametersOf(declared: FunctionParameters | undefined): FunctionParameters {
  const properties = Object.fromEntries(
    Object.entries(declared?.properties ?? {}).map(([key, parameter]) => [key, { name: key, ...parameter }]),
  );
  return declared?.required ? { properties, required: declared.required } : { properties };
}

function functionsOf(needs: readonly ListenerNeeds[]): AppManifest["functions"] {
  const steps = needs.flatMap((n) => (n.function ? [n.function] : []));
  if (steps.length === 0) return undefined;
  return Object.fromEntries(
    steps.map(({ callback_id, title, description, input_parameters, output_parameters }) => [
      callback_id,
      {
        title: title ?? callback_id,
        description: description ?? title ?? callback_id,
        input_parameters: parametersOf(input_parameters),
        output_parameters: parametersOf(output_parameters),
      },
    ]),
  );
}

function featuresOf(
  needs: readonly ListenerNeeds[],
  declared: AppManifestDeclaration,
  name: string,
  urls: ReturnType<typeof slackUrls>,
  view: AppView | undefined,
) {
  const commands = needs.flatMap((n) => (n.command ? [n.command] : []));
  const shortcuts = needs.flatMap((n) => (n.shortcut ? [n.shortcut] : []));
  return {
    ...appHomeOf(needs, view, declared.app_home),
    bot_user: { display_name: name, always_online: false },
    ...(commands.length
      ? {
          slash_commands: commands.map(({ command, description, usage_hint, should_escape }) => ({
            command,
            url: urls.commands,
            description: description ?? command,
            ...(usage_hint ? { usage_hint } : {}),
            should_escape: should_escape ?? false,
          })),
        }
      : {}),
    ...(shortcuts.length
      ? {
          shortcuts: shortcuts.map(({ callback_id, name, description, type }) => ({
            name: name ?? callback_id,
            type: type ?? "global",
            callback_id,
            description: description ?? name ?? callback_id,
          })),
        }
      : {}),
    ...(view ? viewFeature(view, needs, declared, name) : {}),
    ...workObjectFeatures(needs, declared),
  };
}

/**
 * The Slack app manifest the registrations need (pure): a bot event for every event and message
 * listener, the scopes those events and the coordinator's own calls need (with the app's declared
 * ones; optional ones in `bot_optional` by optionalScopes.ts's one rule), slash commands, shortcuts, interactivity and options load URLs, custom steps, the App
 * Home's tabs, the agent (or assistant) view with the stop button's event, and in OAuth mode the
 * redirect URL and the install's scopes.
 */
export function appManifest(
  registered: readonly NamedNeeds[],
  declared: AppManifestDeclaration,
  options: ManifestOptions,
): AppManifest {
  const needs = registered.map((r) => r.needs);
  const urls = slackUrls(options.url);
  const name = options.name ?? declared.name ?? "Slack app";
  const view = viewOf(needs, declared, options);
  const events = sorted([
    ...needs.flatMap((n) => n.events ?? []),
    ...(view === "agent_view" ? AGENT_VIEW_EVENTS : []),
    ...(options.oauth ? OAUTH_EVENTS : []),
  ]);
  const required = [
    ...(needs.some((n) => n.command || n.shortcut) ? [COMMANDS_SCOPE] : []),
    ...(view ? ASSISTANT_SCOPES : []),
    ...(declared.unfurl_domains?.length ? UNFURL_SCOPES : []),
    ...(options.oauth?.scopes ?? []),
  ];
  // Uncertain posts are looked for in the conversations the app hears from; a commands-only app is never asked.
  const looksUp = view !== undefined || needs.some((n) => (n.events ?? []).length > 0);
  const optional = optionalScopes(needs, declared, required, looksUp);
  const bot = sorted([
    ...COORDINATOR_SCOPES,
    ...events.flatMap((event) => EVENT_SCOPES[event] ?? []),
    ...needs.flatMap((n) => n.scopes ?? []),
    ...(declared.scopes ?? []),
    ...required,
    ...optional,
  ]);
  const user = sorted([...(declared.userScopes ?? []), ...(options.oauth?.userScopes ?? [])]);
  const interactive = needs.some((n) => n.interactivity || n.options || n.shortcut);
  const functions = functionsOf(needs);
  return {
    _metadata: { major_version: 2, minor_version: 1 },
    display_information: {
      name,
      ...(declared.description ? { description: declared.description } : {}),
      ...(declared.background_color ? { background_color: declared.background_color } : {}),
    },
    features: featuresOf(needs, declared, name, urls, view),
    oauth_config: {
      ...(options.oauth ? { redirect_urls: [options.oauth.redirectUrl ?? urls.oauthRedirect] } : {}),
      scopes: { bot, ...(optional.length ? { bot_optional: optional } : {}), ...(user.length ? { user } : {}) },
    },
    settings: {
      ...(events.length ? { event_subscriptions: { request_url: urls.events, bot_events: events } } : {}),
      ...(interactive
        ? {
            interactivity: {
              is_enabled: true,
              request_url: urls.interactivity,
              ...(needs.some((n) => n.options) ? { message_menu_options_url: urls.interactivity } : {}),
            },
          }
        : {}),
      // Custom steps run in the app's own backend ("remote"), and Slack offers them only from org-ready apps.
      ...(functions ? { function_runtime: "remote", org_deploy_enabled: true } : { org_deploy_enabled: false }),
      socket_mode_enabled: false,
    },
    ...(functions ? { functions } : {}),
  };
}
