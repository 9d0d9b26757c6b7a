import { describe, expect, it } from "vitest";
import { matchesParked, slackErrorCode } from "../../src/recording/parkedMatch";

const row = { workspace: "T1", effect: "slack.api", method: "chat.update", last_error: "chat.update: 429 ratelimited" };

describe("which parked rows a filter matches", () => {
  it("reads Slack's error code as SlackApiError words it, and nothing else", () => {
    expect(slackErrorCode("chat.update: 429 ratelimited")).toBe("ratelimited");
    expect(slackErrorCode("conversations.history: 200 missing_scope (needs channels:history, …)")).toBe("missing_scope");
    expect(slackErrorCode("chat.postMessage: HTTP 503")).toBeUndefined();
    expect(slackErrorCode("alert: HTTP 500 from ALERT_WEBHOOK_URL")).toBeUndefined();
    expect(slackErrorCode(`handler "reply" threw Error: 429 ratelimited`)).toBeUndefined();
  });

  it("an error filter is Slack's code exactly, or the start of the stored error — never a word inside it", () => {
    expect(matchesParked({ error: "ratelimited" }, row)).toBe(true);
    expect(matchesParked({ error: "chat.update: 429" }, row)).toBe(true);
    expect(matchesParked({ error: "limited" }, row)).toBe(false);
    expect(matchesParked({ error: "rate" }, row)).toBe(false);
    expect(matchesParked({ error: "ratelimited" }, { ...row, last_error: null })).toBe(false);
  });

  it("every field present must hold; a method is a slack.api row's only", () => {
    expect(matchesParked({}, row)).toBe(true);
    expect(matchesParked({ workspace: "T1", effect: "slack.api", method: "chat.update", error: "ratelimited" }, row)).toBe(true);
    expect(matchesParked({ workspace: "T2" }, row)).toBe(false);
    expect(matchesParked({ effect: "run" }, row)).toBe(false);
    expect(matchesParked({ method: "chat.postMessage" }, row)).toBe(false);
    expect(matchesParked({ method: "chat.update" }, { ...row, effect: "run" })).toBe(false);
  });
});
