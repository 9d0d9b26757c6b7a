import { describe, expect, it, vi } from "vitest";
import { isOwnMessage, ownMessages } from "../../src/slack/ownMessages";

// The one rule every lookup applies to what it finds (src/slack/ownMessages.ts).

const OWN = { botId: "B1", appId: "A1", userId: "U1" };

describe("a message is the app's own", () => {
  it("when its bot_id is the app's bot, and its app and user, where shown, are the app's", () => {
    expect(isOwnMessage({ ts: "1.1", bot_id: "B1", app_id: "A1", user: "U1" }, OWN)).toBe(true);
    expect(isOwnMessage({ ts: "1.1", bot_id: "B1" }, OWN)).toBe(true);
    expect(isOwnMessage({ ts: "1.1", bot_id: "B2", app_id: "A2", user: "U2" }, OWN)).toBe(false);
    expect(isOwnMessage({ ts: "1.1", bot_id: "B1", app_id: "A2" }, OWN)).toBe(false);
    expect(isOwnMessage({ ts: "1.1", bot_id: "B1", user: "U2" }, OWN)).toBe(false);
    // A person's message (no bot_id), even with the bot's user id, is never the bot's.
    expect(isOwnMessage({ ts: "1.1", user: "U1" }, OWN)).toBe(false);
    // A bot that cannot be told (auth.test named none) owns nothing.
    expect(isOwnMessage({ ts: "1.1", bot_id: "B1" }, {})).toBe(false);
  });

  it("none is taken when auth.test names no bot for the token: said once for the channel", async () => {
    const warn = vi.spyOn(console, "warn");
    const call = async () => ({ ok: true, user_id: "U1" });
    const found = [{ ts: "1.1", bot_id: "B1", text: "hi" }];
    expect(await ownMessages(call, "C0NOBOT", found)).toEqual([]);
    expect(await ownMessages(call, "C0NOBOT", found)).toEqual([]);
    const told = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("auth.test named no bot"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("C0NOBOT");
  });

  it("asks nothing when nothing was found", async () => {
    const call = vi.fn(async () => ({ ok: true, bot_id: "B1" }));
    expect(await ownMessages(call, "C1", [])).toEqual([]);
    expect(call).not.toHaveBeenCalled();
  });
});
