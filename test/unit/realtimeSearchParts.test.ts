import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { actionTokenOf } from "../../src/app/search";
import { paceOf } from "../../src/pacing/tiers";
import { appMention, channelMessage } from "../../src/testing/deliveries";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { eventDelivery, inboundOf } from "../support/inboundOf";

/** The real-time search's pure parts: where the action_token is read, its pace, and the fake's answers. */

describe("actionTokenOf", () => {
  it("reads a user's message's assistant_thread.action_token and an app_mention's action_token; none elsewhere", () => {
    const inThread = eventDelivery("T1", { ...channelMessage(), assistant_thread: { action_token: "1.2.abc" } });
    const mention = eventDelivery("T1", { ...appMention(), action_token: "3.4.def" });
    const plain = eventDelivery("T1", channelMessage());
    const joined = eventDelivery("T1", { type: "member_joined_channel", user: "U1", channel: "C1", action_token: "5.6.x" });
    const command = inboundOf("command", "/find", { text: "x", action_token: "7.8.y" });
    expect([inThread, mention, plain, joined, command].map(actionTokenOf)).toEqual([
      "1.2.abc",
      "3.4.def",
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the search's pace", () => {
  it("assistant.search.context and assistant.search.info are paced per workspace at Tier 2 (20 a minute)", () => {
    for (const method of ["assistant.search.context", "assistant.search.info"])
      expect(paceOf(method, { query: "x" })).toEqual({ rateKey: method, pace: { perSecond: 20 / 60, burst: 4 } });
  });
});

/** The fake's answer to a search, as the test reads it. */
interface Answered {
  ok: boolean;
  error?: string;
  results: { messages: Array<{ content: string }> };
  response_metadata: { next_cursor: string };
}

describe("the fake's Real-time Search", () => {
  const call = async (slack: FakeSlack, method: string, body: Record<string, string>) =>
    (await (
      await slack.fetch(`${slack.apiUrl}${method}`, { method: "POST", body: new URLSearchParams(body) })
    ).json()) as Answered;

  it("pages the messages containing the query by `limit` and `cursor`, refuses a missing query, answers search.info", async () => {
    const slack = new FakeSlack();
    for (const n of [1, 2, 3]) slack.postAs({ user: "U1" }, "C1", { text: `Budget note ${n}` });
    slack.postAs({ user: "U1" }, "C1", { text: "unrelated" });
    const first = await call(slack, "assistant.search.context", { query: "budget", limit: "2" });
    expect(first.results.messages.map((m) => m.content)).toEqual(["Budget note 1", "Budget note 2"]);
    const next = await call(slack, "assistant.search.context", { query: "budget", cursor: first.response_metadata.next_cursor });
    expect(next.results.messages.map((m) => m.content)).toEqual(["Budget note 3"]);
    expect(next.response_metadata.next_cursor).toBe("");
    expect(await call(slack, "assistant.search.context", { query: " " })).toEqual({ ok: false, error: "missing_query" });
    expect(await call(slack, "assistant.search.context", { query: "budget", content_types: "files" })).toEqual({
      ok: true,
      results: { messages: [] },
    });
    expect(await call(slack, "assistant.search.info", {})).toEqual({ ok: true, is_ai_search_enabled: false });
  });
});

describe("search()'s types", () => {
  it("take Slack's channel and content types only", () => {
    const app = new App().message("x", async ({ search }) => {
      const found = await search("q", { channel_types: ["public_channel", "im"], content_types: ["messages", "files"] });
      found.results.messages?.[0]?.permalink satisfies string | undefined;
      // @ts-expect-error: not a channel type of assistant.search.context
      await search("q", { channel_types: ["everywhere"] });
      // @ts-expect-error: the action_token is the run's to pass, not an option
      await search("q", { action_token: "1.2.3" });
    });
    // The checks are the compiler's (npm run typecheck); the listener is registered all the same.
    expect(app.plan(eventDelivery("T1", channelMessage({ text: "x" })))).toHaveProperty("effects");
  });
});
