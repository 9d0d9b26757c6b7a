import { describe, expect, it } from "vitest";
import { tokenRejectionOf } from "../../src/delivery/performRow";
import { HandlerError, SlackApiError } from "../../src/platform/errors";

describe("which failed attempts say their token was rejected", () => {
  it("Slack refusing the workspace's token itself: its code, told to whoever issued the token", () => {
    expect(tokenRejectionOf(new SlackApiError("chat.postMessage", 200, "token_revoked", "park"))).toBe("token_revoked");
    expect(tokenRejectionOf(new SlackApiError("chat.postMessage", 200, "invalid_auth", "park"))).toBe("invalid_auth");
  });

  it("a token the handler passed itself, another refusal, or not Slack's answer: nothing to tell", () => {
    const passed = new SlackApiError("users.info", 200, "token_revoked", "park");
    passed.callerToken = true;
    expect(tokenRejectionOf(passed)).toBeUndefined();
    expect(tokenRejectionOf(new SlackApiError("chat.postMessage", 200, "channel_not_found", "park"))).toBeUndefined();
    expect(tokenRejectionOf(new SlackApiError("chat.postMessage", 500, undefined, "retry"))).toBeUndefined();
    expect(tokenRejectionOf(new HandlerError("mention", new Error("token_revoked"), 3))).toBeUndefined();
  });
});
