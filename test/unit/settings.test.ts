import { describe, expect, it } from "vitest";
import { InvalidSetting } from "../../src/platform/errors";
import { alertSettings, deliverySettings, edgeSettings, relaySettings } from "../../src/settings";

describe("settings", () => {
  it("a bad value is refused with the setting's name", () => {
    expect(() => deliverySettings({ DELIVERY_TIMEOUT_MS: "10000", LEASE_MS: "15000" })).toThrow(
      /^LEASE_MS \(15000\) must be at least twice/,
    );
    expect(() => deliverySettings({ MAX_ATTEMPTS: "zero" })).toThrow(
      new InvalidSetting("MAX_ATTEMPTS", 'must be a positive integer, got "zero"'),
    );
    expect(() => deliverySettings({ RESPONSE_URL_ORIGINS: "hooks.slack.com" })).toThrow(
      /^RESPONSE_URL_ORIGINS must list origins/,
    );
    expect(() => edgeSettings({})).toThrow(/^SLACK_SIGNING_SECRET is not set/);
  });

  it("subrequests per invocation: Workers Paid's 10000 unless told, Free's 50 accepted, fewer than 10 refused", () => {
    expect(deliverySettings({}).delivery.subrequestsPerInvocation).toBe(10_000);
    expect(deliverySettings({ SUBREQUESTS_PER_INVOCATION: "50" }).delivery.subrequestsPerInvocation).toBe(50);
    expect(() => deliverySettings({ SUBREQUESTS_PER_INVOCATION: "9" })).toThrow(
      /^SUBREQUESTS_PER_INVOCATION \(9\) must be at least 10/,
    );
  });

  it("alert settings: the guard's defaults (20 answers, ratio 0.5); a bad value falls back to its default, named", () => {
    expect(alertSettings({})).toEqual({
      webhookUrl: undefined,
      guardMinRequests: 20,
      guardFailureRatio: 0.5,
      storageAlertBytes: 8_000_000_000,
      problems: [],
    });
    const bad = alertSettings({ GUARD_FAILURE_RATIO: "1", ALERT_WEBHOOK_URL: "hooks.slack.com/x", GUARD_MIN_REQUESTS: "7" });
    expect(bad).toMatchObject({ webhookUrl: undefined, guardMinRequests: 7, guardFailureRatio: 0.5 });
    expect(bad.problems.map((problem) => problem.message)).toEqual([
      "GUARD_FAILURE_RATIO must be below 1 (Slack disables at 0.95), got 1",
      'ALERT_WEBHOOK_URL must be an absolute URL, got "hooks.slack.com/x"',
    ]);
    // Monitoring misconfigured never pauses deliveries: the delivery settings do not read it.
    expect(() => deliverySettings({ ALERT_WEBHOOK_URL: "not a url", GUARD_FAILURE_RATIO: "2" })).not.toThrow();
  });

  it("relay settings: RELAY_SYNC_MS defaults to 2000, allows 0 (never wait) and stops at 2500", () => {
    const relay = { SLACK_SIGNING_SECRET: "s", RELAY_URL: "http://127.0.0.1:1/slack/events" };
    expect(relaySettings(relay)?.syncMs).toBe(2000);
    expect(relaySettings({ ...relay, RELAY_SYNC_MS: "0" })?.syncMs).toBe(0);
    expect(() => relaySettings({ ...relay, RELAY_SYNC_MS: "2501" })).toThrow(/^RELAY_SYNC_MS must be at most 2500/);
    expect(() => relaySettings({ ...relay, RELAY_SYNC_MS: "-1" })).toThrow(/^RELAY_SYNC_MS must be 0 or a positive integer/);
    expect(() => relaySettings({ ...relay, RELAY_TIMEOUT_MS: "300001" })).toThrow(/^RELAY_TIMEOUT_MS must be at most 300000/);
  });

  it("are parsed once per env, not per request", () => {
    const vars = { SLACK_SIGNING_SECRET: "s", SHARD_BUCKETS: "4" };
    expect(edgeSettings(vars)).toBe(edgeSettings(vars));
    expect(edgeSettings(vars).shardBuckets).toBe(4);
  });

  it("response_url origins default to Slack's own", () => {
    expect(deliverySettings({}).responseUrlOrigins).toEqual(["https://hooks.slack.com", "https://hooks.slack-gov.com"]);
  });
});
