/**
 * Builds deliveries exactly as Slack sends them for tests, the benchmark and the demo: Slack's
 * payloads here, signed with Slack's headers by signedDeliveries.ts (re-exported here). Uses only
 * Web APIs, so it runs in workerd and in Node.
 */

export type { Delivery, SignOptions } from "./signedDeliveries";
export { sign, signedEvent, signedForm, signedInteraction, toRequest } from "./signedDeliveries";

let counter = 0;
/** A unique id with Slack's shape, e.g. `Ev0001ABC…`. */
export function slackId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${counter.toString(36).toUpperCase().padStart(4, "0")}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
}

export interface EventOptions {
  eventId?: string;
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
  botUserId?: string;
}

/** An Events API `event_callback` envelope around `event`. */
export function eventCallback(event: Record<string, unknown>, options: EventOptions = {}): Record<string, unknown> {
  const teamId = options.teamId ?? "T0000TEST";
  return {
    token: "unused-verification-token",
    team_id: teamId,
    ...(options.enterpriseId ? { enterprise_id: options.enterpriseId } : {}),
    api_app_id: "A0000TEST",
    event: { event_ts: event.ts, ...event },
    type: "event_callback",
    event_id: options.eventId ?? slackId("Ev"),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: options.enterpriseId ?? null,
        team_id: teamId,
        user_id: options.botUserId ?? "U0000BOT",
        is_bot: true,
        is_enterprise_install: options.isEnterpriseInstall ?? false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/**
 * An org-wide event as Slack delivers it to an org install (`team_access_granted`,
 * `tokens_revoked`, `app_uninstalled`): only the `enterprise_id`, with `team_id` absent or
 * null, and neither `authorizations` nor `is_enterprise_install`.
 */
export function orgWideEnvelope(
  event: Record<string, unknown>,
  enterpriseId: string,
  teamId: "absent" | "null" = "absent",
): Record<string, unknown> {
  return {
    token: "unused-verification-token",
    ...(teamId === "null" ? { team_id: null } : {}),
    enterprise_id: enterpriseId,
    api_app_id: "A0000TEST",
    event,
    type: "event_callback",
    event_id: slackId("Ev"),
    event_time: Math.floor(Date.now() / 1000),
  };
}
let tsCounter = 0;
/** A message `ts` as Slack formats it: seconds.microseconds, unique per call. */
export function messageTs(): string {
  tsCounter += 1;
  return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, "0")}`;
}

interface MessageOptions {
  channel?: string;
  user?: string;
  text?: string;
  ts?: string;
}

/** The fields every message-like event carries: who, what, when (its `ts`) and where. */
function messageFields(options: MessageOptions, defaultText: string): Record<string, unknown> {
  return {
    user: options.user ?? "U0000USER",
    text: options.text ?? defaultText,
    ts: options.ts ?? messageTs(),
    // A channel of its own unless told: Slack paces posts per channel (src/pacing/), and a test
    // about something else must not wait for that. Pacing's own tests name their channel.
    channel: options.channel ?? `C${String(tsCounter).padStart(8, "0")}`,
  };
}

export function appMention(options: MessageOptions & { threadTs?: string } = {}): Record<string, unknown> {
  return {
    type: "app_mention",
    ...messageFields(options, "<@U0000BOT> hello"),
    ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
  };
}

export function slashCommandFields(command: string, text: string, fields: Record<string, string> = {}): Record<string, string> {
  return {
    token: "unused-verification-token",
    team_id: "T0000TEST",
    team_domain: "test",
    channel_id: "C0000TEST",
    channel_name: "general",
    user_id: "U0000USER",
    user_name: "tester",
    command,
    text,
    api_app_id: "A0000TEST",
    is_enterprise_install: "false",
    response_url: "http://127.0.0.1:9/hooks/commands/T0000TEST/1/abc",
    trigger_id: slackId("13345224609."),
    ...fields,
  };
}

/** A channel `message` event (the same message as an app_mention when it mentions the bot). */
export function channelMessage(options: MessageOptions & { botId?: string; subtype?: string } = {}): Record<string, unknown> {
  return {
    type: "message",
    channel_type: "channel",
    ...messageFields(options, "hello"),
    ...(options.botId ? { bot_id: options.botId } : {}),
    ...(options.subtype ? { subtype: options.subtype } : {}),
  };
}

/** A `block_actions` payload: a button clicked on a message the app posted. */
export function blockActions(options: {
  teamId?: string;
  actionId: string;
  channel?: string;
  messageTs?: string;
  responseUrl?: string;
}): Record<string, unknown> {
  const channel = options.channel ?? "C0000TEST";
  const ts = options.messageTs ?? messageTs();
  return {
    type: "block_actions",
    team: { id: options.teamId ?? "T0000TEST", domain: "test" },
    user: { id: "U0000USER", username: "tester", team_id: options.teamId ?? "T0000TEST" },
    api_app_id: "A0000TEST",
    trigger_id: slackId("13345224609."),
    container: { type: "message", message_ts: ts, channel_id: channel, is_ephemeral: false },
    channel: { id: channel, name: "general" },
    message: { type: "message", ts, text: "an answer" },
    response_url: options.responseUrl ?? "http://127.0.0.1:9/hooks/actions/T0000TEST/1/abc",
    actions: [{ action_id: options.actionId, block_id: "b1", type: "button", value: "yes", action_ts: ts }],
  };
}

/** One input's state: a text is a plain-text input's value; an object is the state as Slack sends it. */
export type ViewInputState = string | { type: string; [field: string]: unknown };

/** A `view_submission` payload with its inputs' state (`block_id` → `action_id` → text or state). */
export function viewSubmission(options: {
  teamId?: string;
  callbackId: string;
  values: Record<string, Record<string, ViewInputState>>;
}): Record<string, unknown> {
  const stateOf = (value: ViewInputState) => (typeof value === "string" ? { type: "plain_text_input", value } : value);
  const values = Object.fromEntries(
    Object.entries(options.values).map(([block, actions]) => [
      block,
      Object.fromEntries(Object.entries(actions).map(([action, value]) => [action, stateOf(value)])),
    ]),
  );
  return {
    type: "view_submission",
    team: { id: options.teamId ?? "T0000TEST", domain: "test" },
    user: { id: "U0000USER", username: "tester", team_id: options.teamId ?? "T0000TEST" },
    api_app_id: "A0000TEST",
    trigger_id: slackId("13345224609."),
    view: { id: slackId("V"), type: "modal", callback_id: options.callbackId, state: { values }, hash: "1.abc" },
    response_urls: [],
  };
}
