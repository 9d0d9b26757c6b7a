import { afterEach, describe, expect, it, vi } from "vitest";
import { receiptStory } from "../../src/recording/receiptStory";
import { REDACTED_MARK } from "../../src/rpc/eventStories";
import { appMention } from "../../src/testing/deliveries";
import { eventDelivery } from "../support/inboundOf";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A mention whose payload carries secrets and written words at several depths. */
function mention() {
  const inbound = eventDelivery("T1", {
    ...appMention({ text: "<@U0BOT> the secret plan", channel: "C0STORY01" }),
    blocks: [{ type: "rich_text", elements: [{ type: "text", text: "the secret plan" }] }],
    files: [{ id: "F1" }],
    attachments: [{ fallback: "x", bot_access_token: "xwfp-nested", "": { token: "deep", id: "kept" } }],
  });
  inbound.payload.token = "legacy-verification-token";
  return inbound;
}

describe("an event's story keeps its payload without copying it first", () => {
  it("writes the kept payload with no object of it copied (Object.entries is what the copy walked)", () => {
    const inbound = mention();
    const entries = vi.spyOn(Object, "entries");
    const story = receiptStory(inbound, ["k"], "full");
    expect(entries).toHaveBeenCalledTimes(0);
    expect(story.payload).not.toBeNull();
  });

  it("full: secrets left out at any depth, the rest as Slack sent it", () => {
    const inbound = mention();
    const kept = JSON.parse(receiptStory(inbound, ["k"], "full").payload!);
    expect(kept).not.toHaveProperty("token");
    expect(kept.event.text).toBe("<@U0BOT> the secret plan");
    expect(kept.event.attachments).toEqual([{ fallback: "x", "": { id: "kept" } }]);
    expect(kept).not.toHaveProperty(REDACTED_MARK);
    const { token: _, ...rest } = inbound.payload;
    expect(kept).toEqual(
      JSON.parse(JSON.stringify(rest, (name, value) => (name === "bot_access_token" || name === "token" ? undefined : value))),
    );
  });

  it("redacted: what the person wrote left out at any depth, ids kept, marked at the top only", () => {
    const kept = JSON.parse(receiptStory(mention(), ["k"], "redacted").payload!);
    expect(kept[REDACTED_MARK]).toBe(true);
    expect(kept.event).toMatchObject({ type: "app_mention", channel: "C0STORY01" });
    for (const written of ["text", "blocks", "files", "attachments"]) expect(kept.event).not.toHaveProperty(written);
    expect(JSON.stringify(kept)).not.toContain("secret plan");
    expect(kept.event).not.toHaveProperty(REDACTED_MARK);
  });

  it("none: no payload", () => {
    expect(receiptStory(mention(), ["k"], "none").payload).toBeNull();
  });
});
