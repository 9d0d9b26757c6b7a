import { classify, type Verdict } from "../delivery/classify";
import { ExpiredHandle, TRIGGER_EXPIRED } from "../delivery/expiry";
import { callWebApi, postToResponseUrl, type CallResult, type WebApiMethods } from "./webApi";

/** A Web API call answered with an error; `verdict` says whether a later attempt can succeed. */
export class SlackApiError extends Error {
  override name = "SlackApiError";
  readonly method: string;
  readonly result: CallResult;
  readonly verdict: Verdict;

  constructor(method: string, result: CallResult) {
    super(`${method} failed: ${result.error ?? `HTTP ${result.status}`}`);
    this.method = method;
    this.result = result;
    this.verdict = classify(result, method);
  }
}

type Answer = Record<string, unknown>;

export interface ClientOptions {
  apiUrl: string;
  token: string | undefined;
  timeoutMs: number;
  /** For a run: whether its delivery's trigger_id is past use (views.open then fails as expired). */
  triggerExpired?: () => boolean;
}

/**
 * The Web API client handed to durable handlers: bound to one workspace's token, one fetch per
 * call with its own timeout, no retries of its own (a failed call fails the run, and the
 * outbox retries the run — completed steps are not repeated).
 */
export class SlackClient {
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
  }

  /** The same client for one run attempt, aware of its trigger_id's age. */
  forRun(triggerExpired: () => boolean): SlackClient {
    return new SlackClient({ ...this.options, triggerExpired });
  }

  async call<T extends Answer = Answer>(method: string, body: Record<string, unknown>): Promise<T> {
    if (method === "views.open" && this.options.triggerExpired?.()) throw new ExpiredHandle(TRIGGER_EXPIRED);
    if (!this.options.token) throw new MissingBotToken("SLACK_BOT_TOKEN is not set");
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const result = await callWebApi({ apiUrl: this.options.apiUrl, token: this.options.token, method, body, signal });
    if (!result.ok && classify(result, method).outcome !== "delivered") throw new SlackApiError(method, result);
    return (result.body ?? {}) as T;
  }

  /** POSTs to a `response_url` (no token: the URL is the credential). */
  async respond(url: string, body: Record<string, unknown>): Promise<void> {
    const result = await postToResponseUrl(url, body, AbortSignal.timeout(this.options.timeoutMs));
    if (!result.ok) throw new SlackApiError("response_url", result);
  }

  readonly chat = {
    postMessage: (args: WebApiMethods["chat.postMessage"] & Answer) => this.call<{ ts: string; channel: string }>("chat.postMessage", args),
    update: (args: WebApiMethods["chat.update"] & Answer) => this.call<{ ts: string; channel: string }>("chat.update", args),
    delete: (args: WebApiMethods["chat.delete"] & Answer) => this.call("chat.delete", args),
  };

  readonly reactions = {
    add: (args: WebApiMethods["reactions.add"] & Answer) => this.call("reactions.add", args),
  };

  readonly views = {
    open: (args: WebApiMethods["views.open"] & Answer) => this.call<{ view: { id: string } }>("views.open", args),
    update: (args: WebApiMethods["views.update"] & Answer) => this.call("views.update", args),
    publish: (args: WebApiMethods["views.publish"] & Answer) => this.call("views.publish", args),
  };
}

export class MissingBotToken extends Error {
  override name = "MissingBotToken";
}
