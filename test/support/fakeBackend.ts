import { beforeEach, expect, vi } from "vitest";
import { verifySignature } from "../../src/slack/verifySignature";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { ALERT_RECEIVER_URL, FAKE_SLACK_ORIGIN, RELAY_BACKEND_URL, RELAY_SIGNING_SECRET } from "./testBindings";

/** One request the relay made to the backend. */
export interface RelayedRequest {
  headers: Headers;
  body: Uint8Array;
  text: string;
}

/** Expects `request` signed as a stock Slack verifier accepts it with RELAY_SIGNING_SECRET, at its own timestamp. */
export async function expectRelaySigned(request: RelayedRequest): Promise<void> {
  const timestamp = request.headers.get("x-slack-request-timestamp");
  const signature = request.headers.get("x-slack-signature");
  const verified = verifySignature({
    secrets: [RELAY_SIGNING_SECRET],
    timestamp,
    signature,
    body: request.body,
    nowSeconds: Number(timestamp),
  });
  await expect(verified).resolves.toBeUndefined();
}

/** An answer: a status (with headers, a body, after a delay), or a dropped connection. */
type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | { reset: true };

/**
 * An existing Slack backend (a Bolt app elsewhere) as relay mode sees it: records every request
 * and answers 200, or what it was told to answer next.
 */
export class FakeBackend {
  readonly requests: RelayedRequest[] = [];
  private readonly answers: Answer[] = [];

  /** Answers the next `times` requests with `answer` (an HTTP status, or a dropped connection). */
  answerNext(answer: Answer, times = 1): this {
    for (let i = 0; i < times; i++) this.answers.push(answer);
    return this;
  }

  /** Forgets the answers it was told to give: from now on it answers 200. */
  recover(): this {
    this.answers.length = 0;
    return this;
  }

  async handle(request: Request): Promise<Response> {
    const body = new Uint8Array(await request.arrayBuffer());
    this.requests.push({ headers: request.headers, body, text: new TextDecoder().decode(body) });
    const answer = this.answers.shift() ?? { status: 200 };
    if ("reset" in answer) throw new TypeError("Network connection lost.");
    if (answer.delayMs) await new Promise((later) => setTimeout(later, answer.delayMs));
    return new Response(answer.body ?? "ok", { status: answer.status, headers: answer.headers });
  }
}

/** ALERT_WEBHOOK_URL's receiver (a Slack incoming webhook, as it were): keeps each alert's text. */
export class FakeAlertReceiver {
  readonly texts: string[] = [];

  async handle(request: Request): Promise<Response> {
    const { text } = (await request.json()) as { text: string };
    this.texts.push(text);
    return new Response("ok");
  }
}

/** Routes fetches to a fresh fake Slack, backend and alert receiver per test; anything else fails. */
export function useFakeSlackAndBackend(): {
  slack: () => FakeSlack;
  backend: () => FakeBackend;
  alerts: () => FakeAlertReceiver;
} {
  let slack = new FakeSlack(FAKE_SLACK_ORIGIN);
  let backend = new FakeBackend();
  let alerts = new FakeAlertReceiver();
  beforeEach(() => {
    slack = new FakeSlack(FAKE_SLACK_ORIGIN);
    backend = new FakeBackend();
    alerts = new FakeAlertReceiver();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (request.url === RELAY_BACKEND_URL) return backend.handle(request);
      if (request.url === ALERT_RECEIVER_URL) return alerts.handle(request);
      if (!slack.serves(request.url)) throw new TypeError(`outbound fetch blocked in tests: ${request.url}`);
      return slack.handle(request, init?.signal ?? (input instanceof Request ? input.signal : null));
    });
  });
  return { slack: () => slack, backend: () => backend, alerts: () => alerts };
}
