import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSlack, SlackSimulator } from "../../src/testing";

// Slack's getting-started app, ported (gettingStarted.ts), served by the coordinator in workerd.
let slack: FakeSlack;
let simulate: SlackSimulator;

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: `T${crypto.randomUUID().slice(0, 8)}` });
});
afterEach(() => vi.restoreAllMocks());

describe("the ported getting-started app", () => {
  it("answers hello with the button, and the button's click with who clicked", async () => {
    const hello = await simulate.message({ channel: "C0PORT", user: "U0ALICE", text: "hello there" });
    expect((await exports.default.fetch(hello)).status).toBe(200);
    const greeting = await slack.waitFor("chat.postMessage");
    expect(greeting.body).toMatchObject({
      channel: "C0PORT",
      text: "Hey there <@U0ALICE>!",
      blocks: [{ type: "section", accessory: { type: "button", action_id: "button_click" } }],
    });

    const click = await simulate.blockActions("button_click", "clicked", { channel: { id: "C0PORT", name: "port" } });
    expect((await exports.default.fetch(click)).status).toBe(200);
    const clicked = await slack.waitFor("chat.postMessage", (call) => call.body.text !== greeting.body.text);
    expect(clicked.body).toMatchObject({ channel: "C0PORT", text: "<@U0000USER> clicked the button" });
    expect(slack.callsTo("chat.postMessage")).toHaveLength(2);
  });
});
