import { describe, expect, it } from "vitest";
import { minimumRetrySpanMs, retryDelayMs } from "../src/delivery/backoff";
import { classify, verdictOf } from "../src/delivery/classify";
import { ExpiredHandle } from "../src/delivery/expiry";
import { rateKeyOf } from "../src/delivery/performEffect";
import { readSettings } from "../src/config";

const answer = (status: number, error?: string, retryAfterMs?: number) => ({ status, ok: status < 300 && error === undefined, error, retryAfterMs });

describe("failure classes", () => {
  it("transient: 5xx, 408, 429 and Slack's transient codes are retried, carrying Retry-After", () => {
    for (const status of [500, 502, 503, 504, 408]) expect(classify(answer(status)).outcome).toBe("retry");
    expect(classify(answer(429, "ratelimited", 3000))).toEqual({ outcome: "retry", reason: "429 ratelimited", retryAfterMs: 3000 });
    for (const error of ["ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout"]) {
      expect(classify(answer(200, error)).outcome).toBe("retry");
    }
  });

  it("network errors, resets, timeouts and handler exceptions are transient; expired handles are permanent", () => {
    expect(verdictOf(new DOMException("The operation timed out.", "TimeoutError"))).toEqual({ outcome: "retry", reason: "timeout" });
    expect(verdictOf(new TypeError("Network connection lost."))).toEqual({ outcome: "retry", reason: "network: Network connection lost." });
    expect(verdictOf(new RangeError("boom"))).toEqual({ outcome: "retry", reason: "RangeError: boom" });
    expect(verdictOf(new ExpiredHandle("trigger_id expired (valid 3 seconds)"))).toEqual({ outcome: "park", reason: "trigger_id expired (valid 3 seconds)" });
  });

  it("permanent: Slack's permanent codes and other 4xx are parked at once", () => {
    for (const error of ["channel_not_found", "not_in_channel", "is_archived", "invalid_auth", "token_revoked", "account_inactive", "missing_scope", "msg_too_long", "no_text", "invalid_blocks"]) {
      expect(classify(answer(200, error))).toEqual({ outcome: "park", reason: `200 ${error}` });
    }
    for (const status of [400, 403, 404, 410]) expect(classify(answer(status)).outcome).toBe("park");
  });

  it("idempotent-by-shape answers count as delivered, only for their own method", () => {
    expect(classify(answer(200, "already_reacted"), "reactions.add").outcome).toBe("delivered");
    expect(classify(answer(200, "message_not_found"), "chat.delete").outcome).toBe("delivered");
    expect(classify(answer(200, "message_not_found"), "chat.update").outcome).toBe("park");
  });
});

describe("backoff", () => {
  const { backoff } = readSettings({}).delivery;

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

describe("rate-limit buckets", () => {
  it("are per method, and per channel for chat.postMessage", () => {
    expect(rateKeyOf({ type: "slack.api", method: "chat.postMessage", body: { channel: "C1" } })).toBe("chat.postMessage:C1");
    expect(rateKeyOf({ type: "slack.api", method: "reactions.add", body: { channel: "C1" } })).toBe("reactions.add");
    expect(rateKeyOf({ type: "response_url", url: "http://127.0.0.1:9/hooks/x", body: {} })).toBeNull();
  });
});

describe("settings", () => {
  it("reject leases that are not comfortably above the delivery timeout", () => {
    expect(() => readSettings({ DELIVERY_TIMEOUT_MS: "10000", LEASE_MS: "15000" })).toThrow(/LEASE_MS/);
    expect(() => readSettings({ MAX_ATTEMPTS: "zero" })).toThrow(/MAX_ATTEMPTS must be a positive integer/);
  });
});
