import { describe, expect, it } from "vitest";
import { rateKeyOf } from "../../src/effects/registry";
import { minimumRetrySpanMs, retryDelayMs } from "../../src/platform/backoff";
import {
  ExpiredHandle,
  ForbiddenUrl,
  HandlerError,
  LeaseLost,
  ListenerGone,
  MissingBotToken,
  RetryableError,
  SlackUnreachable,
  settlementOf,
  UnreadableEffect,
} from "../../src/platform/errors";
import { deliverySettings } from "../../src/settings";
import { classifyAnswer } from "../../src/slack/classifyAnswer";

const answer = (status: number, error?: string, retryAfterMs?: number) => ({
  status,
  ok: status < 300 && error === undefined,
  error,
  retryAfterMs,
});

describe("Slack's answers", () => {
  it("transient: 5xx, 408, 429 and Slack's transient codes are retried", () => {
    for (const status of [500, 502, 503, 504, 408, 429]) expect(classifyAnswer(answer(status))).toBe("retry");
    for (const error of ["ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout"]) {
      expect(classifyAnswer(answer(200, error))).toBe("retry");
    }
  });

  it("permanent: Slack's permanent codes and other 4xx are parked at once", () => {
    for (const error of [
      "channel_not_found",
      "not_in_channel",
      "is_archived",
      "invalid_auth",
      "token_revoked",
      "account_inactive",
      "missing_scope",
      "msg_too_long",
      "no_text",
      "invalid_blocks",
    ]) {
      expect(classifyAnswer(answer(200, error))).toBe("park");
    }
    for (const status of [400, 403, 404, 410]) expect(classifyAnswer(answer(status))).toBe("park");
  });

  it("idempotent-by-shape answers count as delivered, only for their own method", () => {
    expect(classifyAnswer(answer(200, "already_reacted"), "reactions.add")).toBe("delivered");
    expect(classifyAnswer(answer(200, "message_not_found"), "chat.delete")).toBe("delivered");
    expect(classifyAnswer(answer(200, "message_not_found"), "chat.update")).toBe("park");
  });
});

describe("what an error means for its outbox row (a property of its class)", () => {
  it("retried: Slack unreachable, no bot token yet, a RetryableError (with its Retry-After)", () => {
    expect(settlementOf(new SlackUnreachable("chat.postMessage: timeout after 1000 ms"))).toMatchObject({
      disposition: "retry",
      reason: "chat.postMessage: timeout after 1000 ms",
    });
    expect(settlementOf(new MissingBotToken("SLACK_BOT_TOKEN is not set"))).toMatchObject({ disposition: "retry" });
    expect(settlementOf(new RetryableError("search index busy", { retryAfterMs: 9000 }))).toEqual({
      disposition: "retry",
      reason: "search index busy",
      retryAfterMs: 9000,
      maxAttempts: undefined,
    });
  });

  it("parked: expired handles, forbidden URLs, removed listeners, unreadable rows", () => {
    for (const error of [new ExpiredHandle("x"), new ForbiddenUrl("x"), new ListenerGone("x"), new UnreadableEffect("x")]) {
      expect(settlementOf(error)).toEqual({ disposition: "park", reason: "x" });
    }
  });

  it("a handler's own bug is retried only up to its own limit, named as the handler's, with where it was thrown", () => {
    let bug: unknown;
    try {
      (undefined as unknown as { x: number }).x;
    } catch (error) {
      bug = error;
    }
    const settlement = settlementOf(new HandlerError("command:/crash", bug, 3));
    expect(settlement).toMatchObject({ disposition: "retry", maxAttempts: 3 });
    expect(settlement.disposition === "retry" && settlement.reason).toMatch(
      /^handler "command:\/crash" threw TypeError: .+ \(at .+\)$/,
    );
  });

  it("a lost lease stops the attempt without settling; anything unexpected is retried with its description", () => {
    expect(settlementOf(new LeaseLost("taken over"))).toEqual({ disposition: "lease_lost", at: "step" });
    // Where the attempt found the lease gone: at a post (before sending it) it sent nothing.
    expect(settlementOf(new LeaseLost("taken over", "post"))).toEqual({ disposition: "lease_lost", at: "post" });
    expect(settlementOf(new RangeError("boom"))).toMatchObject({
      disposition: "retry",
      reason: expect.stringMatching(/^RangeError: boom/),
    });
  });
});

describe("backoff", () => {
  const { backoff } = deliverySettings({}).delivery;

  it("doubles from the base, is capped, and only ever adds jitter", () => {
    expect(retryDelayMs(backoff, 1, 0, 0)).toBe(2000);
    expect(retryDelayMs(backoff, 2, 0, 0)).toBe(4000);
    expect(retryDelayMs(backoff, 3, 0, 0.999)).toBeLessThan(8000 * 1.2);
    expect(retryDelayMs(backoff, 30, 0, 0)).toBe(backoff.maxMs);
  });

  it("is never sooner than Retry-After", () => {
    expect(retryDelayMs(backoff, 1, 30_000, 0)).toBe(30_000);
  });

  it("with the defaults, retries span at least 24 hours before parking", () => {
    expect(minimumRetrySpanMs(backoff)).toBeGreaterThanOrEqual(24 * 3_600_000);
  });
});

describe("rate-limit buckets (per effect kind)", () => {
  it("are per method, and per channel for chat.postMessage; response_url has none", () => {
    expect(rateKeyOf({ type: "slack.api", method: "chat.postMessage", body: { channel: "C1" } })).toBe("chat.postMessage:C1");
    expect(rateKeyOf({ type: "slack.api", method: "reactions.add", body: { channel: "C1" } })).toBe("reactions.add");
    expect(rateKeyOf({ type: "response_url", url: "http://127.0.0.1:9/hooks/x", body: {} })).toBeNull();
  });
});
