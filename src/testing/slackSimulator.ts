import {
  appMention,
  blockActions,
  channelMessage,
  eventCallback,
  messageTs,
  slackId,
  slashCommandFields,
  type ViewInputState,
  viewSubmission,
} from "./deliveries";
import { type ButtonChoice, type ClickOptions, clickPayload, type PostedQuestion } from "./questionClicks";
import { type Delivery, type SignOptions, signedEvent, signedForm, signedInteraction, toRequest } from "./signedDeliveries";

/**
 * Signed deliveries as Slack sends them, as `Request`s for your Worker's `fetch`: Events API
 * events, slash commands, interactivity (`block_actions`, `view_submission`, `shortcut`), options loads
 * (`block_suggestion`) and `function_executed`. Each starts from a realistic template; the
 * `overrides` replace its fields (shallowly: the event's, the payload's, the command's form fields).
 */
export interface SlackSimulatorOptions {
  /** The app's signing secret, as the Worker's SLACK_SIGNING_SECRET. */
  signingSecret: string;
  /** Where requests go; the paths are /slack/events, /slack/commands, /slack/interactivity. */
  baseUrl?: string;
  teamId?: string;
  /** Signs as if sent at this time (seconds since the epoch); defaults to now. */
  timestamp?: number;
}

type Fields = Record<string, unknown>;

export class SlackSimulator {
  private readonly baseUrl: string;
  private readonly teamId: string;

  constructor(private readonly options: SlackSimulatorOptions) {
    this.baseUrl = (options.baseUrl ?? "https://coordinator.test").replace(/\/$/, "");
    this.teamId = options.teamId ?? "T0000TEST";
  }

  /** An Events API `event_callback` of `type`; `retryNum` signs it as Slack's retry. */
  event(type: string, overrides: Fields = {}, retry?: { retryNum: number; eventId: string }): Promise<Request> {
    const envelope = eventCallback({ type, ts: messageTs(), ...overrides }, { teamId: this.teamId, eventId: retry?.eventId });
    return this.send("/slack/events", signedEvent(envelope, this.sign(retry?.retryNum)));
  }

  appMention(overrides: Fields = {}): Promise<Request> {
    return this.event("app_mention", { ...appMention(), ...overrides });
  }

  message(overrides: Fields = {}): Promise<Request> {
    return this.event("message", { ...channelMessage(), ...overrides });
  }

  /** A slash command: `/name` with `text`; `overrides` are form fields (`channel_id`, `user_id`, `response_url` …). */
  command(name: string, text = "", overrides: Record<string, string> = {}): Promise<Request> {
    const command = name.startsWith("/") ? name : `/${name}`;
    const fields = slashCommandFields(command, text, { team_id: this.teamId, ...overrides });
    return this.send("/slack/commands", signedForm(fields, this.sign()));
  }

  /** A button click (`block_actions`) on a message the app posted. */
  blockActions(actionId: string, value = "clicked", overrides: Fields = {}): Promise<Request> {
    const payload = blockActions({ teamId: this.teamId, actionId });
    const [action] = payload.actions as Fields[];
    return this.interaction({ ...payload, actions: [{ ...action, value }], ...overrides });
  }

  /**
   * A click on a button of a message the app posted — a durable wait's question, as FakeSlack's
   * `question()` finds it — by its `value` or `action_id` (`click(question, "yes")`): the button's
   * block_id, the message's ts, channel and thread, as Slack sends them; by `user` (U0000USER unless told).
   */
  click(question: PostedQuestion, button: ButtonChoice, options: ClickOptions = {}): Promise<Request> {
    return this.interaction(clickPayload(question, button, this.teamId, options));
  }

  /** A modal submitted: `values` is `block_id` → `action_id` → a text input's value, or an element's state. */
  viewSubmission(
    callbackId: string,
    values: Record<string, Record<string, ViewInputState>> = {},
    overrides: Fields = {},
  ): Promise<Request> {
    return this.interaction({ ...viewSubmission({ teamId: this.teamId, callbackId, values }), ...overrides });
  }

  /** A global shortcut (`shortcut`) with this `callback_id`. */
  shortcut(callbackId: string, overrides: Fields = {}): Promise<Request> {
    return this.interaction({
      type: "shortcut",
      callback_id: callbackId,
      trigger_id: slackId("13345224609."),
      action_ts: messageTs(),
      user: { id: "U0000USER", username: "tester", team_id: this.teamId },
      team: { id: this.teamId, domain: "test" },
      api_app_id: "A0000TEST",
      token: "unused-verification-token",
      ...overrides,
    });
  }

  /** An options load (`block_suggestion`) for an external select: the user typed `value`. */
  blockSuggestion(actionId: string, value: string, overrides: Fields = {}): Promise<Request> {
    return this.interaction({
      type: "block_suggestion",
      user: { id: "U0000USER", username: "tester", team_id: this.teamId },
      container: { type: "view", view_id: slackId("V") },
      api_app_id: "A0000TEST",
      token: "unused-verification-token",
      action_id: actionId,
      block_id: "b1",
      value,
      team: { id: this.teamId, domain: "test" },
      enterprise: null,
      is_enterprise_install: false,
      ...overrides,
    });
  }

  /** A workflow step of the app's custom function `callbackId` runs with `inputs`. */
  functionExecuted(callbackId: string, inputs: Fields = {}, overrides: Fields = {}): Promise<Request> {
    return this.event("function_executed", {
      function: {
        id: slackId("Fn"),
        callback_id: callbackId,
        title: callbackId,
        description: "",
        type: "app",
        input_parameters: Object.keys(inputs).map((name) => ({ type: "string", name, title: name, is_required: false })),
        output_parameters: [],
        app_id: "A0000TEST",
        date_created: Math.floor(Date.now() / 1000),
        date_updated: Math.floor(Date.now() / 1000),
      },
      inputs,
      function_execution_id: slackId("Fx"),
      workflow_execution_id: slackId("Wx"),
      bot_access_token: "xwfp-0000-fake",
      ...overrides,
    });
  }

  /**
   * `agent_session_title_changed`: the user (U0000USER unless told) renamed the agent session of
   * `thread_ts` in `channel` to `title`, as Slack sends it: `previous_title` only when it had one, no `ts`.
   */
  agentSessionTitleChanged(
    fields: { channel: string; thread_ts: string; title: string; previous_title?: string } & Fields,
  ): Promise<Request> {
    const event = { ts: undefined, user: "U0000USER", team_id: this.teamId, event_ts: messageTs(), ...fields };
    return this.event("agent_session_title_changed", event);
  }

  /** Any interactivity payload, signed and form-encoded as `payload=`. */
  interaction(payload: Fields): Promise<Request> {
    return this.send("/slack/interactivity", signedInteraction(payload, this.sign()));
  }

  private sign(retryNum?: number): SignOptions {
    return { secret: this.options.signingSecret, timestamp: this.options.timestamp, retryNum };
  }

  private async send(path: string, delivery: Promise<Delivery>): Promise<Request> {
    return toRequest(`${this.baseUrl}${path}`, await delivery);
  }
}
