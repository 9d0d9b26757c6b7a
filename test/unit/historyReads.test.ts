import { describe, expect, it } from "vitest";
import { InvalidSetting } from "../../src/platform/errors";
import { deliverySettings } from "../../src/settings";

const KEY = btoa(String.fromCharCode(...new Uint8Array(32)));
const SINGLE_WORKSPACE = { SLACK_BOT_TOKEN: "xoxb-1" };
const OAUTH = { SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c", TOKEN_ENCRYPTION_KEY: KEY, INSTALLATIONS: {} };

/** The history lookups' settings as a shard reads them from `vars`. */
const history = (vars: Record<string, unknown>) => {
  const { distribution, perMinute, pageSize } = deliverySettings(vars).history;
  return { distribution, perMinute, pageSize };
};

describe("the history lookups follow what the app's kind allows (issue 40)", () => {
  it("single-workspace mode is a customer's own app: Tier 3, 50 reads a minute of 200 messages", () => {
    expect(history(SINGLE_WORKSPACE)).toEqual({ distribution: "internal", perMinute: 50, pageSize: 200 });
  });

  it("OAuth mode, or no bot token (an authorize of the app's own), may be distributed: 1 read a minute of 15 messages", () => {
    expect(history(OAUTH)).toEqual({ distribution: "distributed", perMinute: 1, pageSize: 15 });
    // A bot token beside OAuth mode is still OAuth mode.
    expect(history({ ...OAUTH, ...SINGLE_WORKSPACE })).toEqual({ distribution: "distributed", perMinute: 1, pageSize: 15 });
    expect(history({})).toEqual({ distribution: "distributed", perMinute: 1, pageSize: 15 });
  });

  it("SLACK_APP_DISTRIBUTION says otherwise: a Marketplace or internal app in OAuth mode, a distributed one with a bot token", () => {
    for (const kind of ["marketplace", "internal"])
      expect(history({ ...OAUTH, SLACK_APP_DISTRIBUTION: kind })).toEqual({ distribution: kind, perMinute: 50, pageSize: 200 });
    expect(history({ ...SINGLE_WORKSPACE, SLACK_APP_DISTRIBUTION: "distributed" })).toEqual({
      distribution: "distributed",
      perMinute: 1,
      pageSize: 15,
    });
  });

  it("SLACK_HISTORY_PER_MINUTE and SLACK_HISTORY_PAGE_SIZE, when set, win in both modes", () => {
    const set = { SLACK_HISTORY_PER_MINUTE: "7", SLACK_HISTORY_PAGE_SIZE: "30" };
    expect(history({ ...SINGLE_WORKSPACE, ...set })).toMatchObject({ perMinute: 7, pageSize: 30 });
    expect(history({ ...OAUTH, ...set })).toMatchObject({ perMinute: 7, pageSize: 30 });
    expect(history({ ...OAUTH, SLACK_HISTORY_PER_MINUTE: "50" })).toEqual({
      distribution: "distributed",
      perMinute: 50,
      pageSize: 15,
    });
  });

  it("a lookup waits 30 s at most unless told; a bad value is refused, named", () => {
    expect(deliverySettings(SINGLE_WORKSPACE).history.maxWaitMs).toBe(30_000);
    expect(deliverySettings({ SLACK_HISTORY_MAX_WAIT_MS: "120000" }).history.maxWaitMs).toBe(120_000);
    expect(() => deliverySettings({ SLACK_APP_DISTRIBUTION: "public" })).toThrow(
      new InvalidSetting("SLACK_APP_DISTRIBUTION", 'must be one of internal, marketplace, distributed, got "public"'),
    );
    expect(() => deliverySettings({ SLACK_HISTORY_PER_MINUTE: "0" })).toThrow(
      new InvalidSetting("SLACK_HISTORY_PER_MINUTE", 'must be a positive integer, got "0"'),
    );
  });
});
