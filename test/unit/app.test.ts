import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { outboxKeyOf } from "../../src/app/contract/outboxKey";
import type { Plan } from "../../src/app/contract/slackApp";
import { parseSlackRequest } from "../../src/inbound/parseSlackRequest";
import type { Inbound } from "../../src/inbound/types";
import {
  appMention,
  blockActions,
  channelMessage,
  eventCallback,
  messageTs,
  slashCommandFields,
  viewSubmission,
} from "../../src/testing/deliveries";

const json = { contentType: "application/json", retryNum: null, retryReason: null };
const form = { contentType: "application/x-www-form-urlencoded", retryNum: null, retryReason: null };

function inbound(body: Record<string, unknown>, kind: "event" | "form" = "event"): Inbound {
  const text = kind === "event" ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString();
  const parsed = parseSlackRequest(text, kind === "event" ? json : form);
  if (parsed.kind !== "inbound") throw new Error(parsed.kind);
  return parsed.inbound;
}
const interaction = (payload: Record<string, unknown>) => inbound({ payload: JSON.stringify(payload) }, "form");
const runsOf = (plan: Plan) => ("ignore" in plan ? plan.ignore : plan.effects.map((e) => e.name));

describe("App listeners plan runs for the deliveries they match", () => {
  const app = new App()
    .event("reaction_added", async () => {})
    .message(/deploy/, async () => {})
    .command("/echo", { ack: () => "got it", run: async () => {} })
    .action({ action_id: /^vote_/ }, async () => {})
    .view("survey", { ack: () => ({ response_action: "clear" }) })
    .view({ callback_id: "survey", type: "view_closed" }, async () => {})
    .shortcut("file_bug", async () => {});

  it("matches each surface by its own key", () => {
    expect(
      runsOf(
        app.plan(
          inbound(
            eventCallback({
              type: "reaction_added",
              user: "U1",
              reaction: "eyes",
              item: { type: "message", channel: "C1", ts: "1.1" },
            }),
          ),
        ),
      ),
    ).toEqual(["run:event:reaction_added"]);
    expect(runsOf(app.plan(inbound(eventCallback(channelMessage({ text: "please deploy now" })))))).toEqual([
      "run:message:/deploy/",
    ]);
    expect(runsOf(app.plan(inbound(eventCallback(channelMessage({ text: "lunch?" })))))).toBe("no handler");
    expect(runsOf(app.plan(inbound(slashCommandFields("/echo", "x"), "form")))).toEqual(["run:command:/echo"]);
    expect(runsOf(app.plan(interaction(blockActions({ actionId: "vote_up" }))))).toEqual(["run:action:/^vote_/"]);
    expect(runsOf(app.plan(interaction(blockActions({ actionId: "other" }))))).toBe("no handler");
    expect(
      runsOf(app.plan(interaction({ type: "shortcut", callback_id: "file_bug", team: { id: "T1" }, trigger_id: "t1" }))),
    ).toEqual(["run:shortcut:file_bug"]);
    expect(
      runsOf(app.plan(interaction({ type: "message_action", callback_id: "file_bug", team: { id: "T1" }, trigger_id: "t2" }))),
    ).toEqual(["run:shortcut:file_bug"]);
    expect(
      runsOf(app.plan(interaction({ type: "view_closed", team: { id: "T1" }, view: { id: "V1", callback_id: "survey" } }))),
    ).toEqual(["run:view:survey:view_closed"]);
  });

  it("returns the ack body: a command's text becomes its ephemeral reply, a view's response_action as given", () => {
    const command = app.plan(inbound(slashCommandFields("/echo", "x"), "form"));
    expect(command).toMatchObject({ ackBody: { response_type: "ephemeral", text: "got it" } });
    const submission = app.plan(interaction(viewSubmission({ callbackId: "survey", values: {} })));
    expect(submission).toEqual({ effects: [], ackBody: { response_action: "clear" } });
  });

  it("gives subtyped and bot messages only to listeners that ask for them", () => {
    const picky = new App()
      .message("hi", { name: "plain", run: async () => {} })
      .message("hi", { name: "edits", subtypes: ["message_changed"], run: async () => {} })
      .message("hi", { name: "bots", includeBots: true, run: async () => {} });
    expect(runsOf(picky.plan(inbound(eventCallback(channelMessage({ text: "hi" })))))).toEqual([
      "run:plain",
      "run:edits",
      "run:bots",
    ]);
    expect(runsOf(picky.plan(inbound(eventCallback(channelMessage({ text: "hi", subtype: "message_changed" })))))).toEqual([
      "run:edits",
    ]);
    expect(runsOf(picky.plan(inbound(eventCallback(channelMessage({ text: "hi", botId: "B1" })))))).toEqual(["run:bots"]);
  });

  it("never hands the app its own messages, and honours a channel allow-list", () => {
    const app2 = new App({ allowedChannels: ["C-ok"] }).message({ includeBots: true, run: async () => {} });
    expect(
      runsOf(app2.plan(inbound(eventCallback(channelMessage({ channel: "C-ok", user: "U0000BOT" }), { botUserId: "U0000BOT" })))),
    ).toBe("this app's own message");
    expect(runsOf(app2.plan(inbound(eventCallback(channelMessage({ channel: "C-other" })))))).toBe("channel not allowed");
    expect(runsOf(app2.plan(inbound(eventCallback(channelMessage({ channel: "C-ok" })))))).toEqual(["run:message:*"]);
  });

  it("fact dedupe keys a run by the message, so two events of one message share one outbox key", () => {
    const factApp = new App().event(["app_mention", "message"], {
      dedupe: "fact",
      when: ({ event }) => String(event!.text).includes("<@U0000BOT>"),
      run: async () => {},
    });
    const ts = messageTs();
    const viaMention = inbound(eventCallback(appMention({ ts, text: "<@U0000BOT> hi" })));
    const viaMessage = inbound(eventCallback(channelMessage({ ts, text: "<@U0000BOT> hi" })));
    const keys = [viaMention, viaMessage].map((i) => {
      const plan = factApp.plan(i);
      if ("ignore" in plan) throw new Error(plan.ignore);
      return outboxKeyOf(i, plan.effects[0]!);
    });
    expect(viaMention.dedupeKey).not.toBe(viaMessage.dedupeKey);
    expect(keys[0]).toBe(keys[1]);
    expect(runsOf(factApp.plan(inbound(eventCallback(channelMessage({ text: "no mention" })))))).toBe("no handler");
  });

  it("refuses two listeners with the same explicit name", () => {
    expect(() => new App().event("a", { name: "x", run: async () => {} }).event("b", { name: "x", run: async () => {} })).toThrow(
      /already taken/,
    );
  });
});
