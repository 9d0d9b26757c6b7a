import { signBody } from "../slack/verifySignature";

/**
 * A delivery as Slack sends it: a body with Slack's headers — its signature, its timestamp, and
 * on a retry the retry's number and reason — and as a `Request`. The payloads are deliveries.ts.
 */

export interface SignOptions {
  secret: string;
  /** Seconds since the epoch; defaults to now. */
  timestamp?: number;
  retryNum?: number;
  retryReason?: string;
}

export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

export async function sign(body: string, contentType: string, options: SignOptions): Promise<Delivery> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    "content-type": contentType,
    "x-slack-request-timestamp": timestamp,
    "x-slack-signature": await signBody(options.secret, timestamp, body),
  };
  if (options.retryNum !== undefined) {
    headers["x-slack-retry-num"] = String(options.retryNum);
    headers["x-slack-retry-reason"] = options.retryReason ?? "http_timeout";
  }
  return { body, headers };
}

export async function signedEvent(envelope: Record<string, unknown>, options: SignOptions): Promise<Delivery> {
  return sign(JSON.stringify(envelope), "application/json", options);
}

export async function signedForm(fields: Record<string, string>, options: SignOptions): Promise<Delivery> {
  return sign(new URLSearchParams(fields).toString(), "application/x-www-form-urlencoded", options);
}

/** An interactivity delivery: the JSON payload form-encoded as `payload=`. */
export async function signedInteraction(payload: Record<string, unknown>, options: SignOptions): Promise<Delivery> {
  return signedForm({ payload: JSON.stringify(payload) }, options);
}

export function toRequest(url: string, delivery: Delivery): Request {
  return new Request(url, { method: "POST", headers: delivery.headers, body: delivery.body });
}
