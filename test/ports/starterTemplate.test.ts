import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSlack, SlackSimulator } from "../../src/testing";

// The starter template's listeners, ported (starterTemplate.ts), served by the coordinator in workerd.
let slack: FakeSlack;
let simulate: SlackSimulator;

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: `T${crypto.randomUUID().slice(0, 8)}` });
});
afterEach(() => vi.restoreAllMocks());

const send = async (request: Promise<Request>) => (await exports.default.fetch(await request)).status;

describe("the ported starter template", () => {
  it("greets a matching message with the RegExp's match", async () => {
    expect(await send(simulate.message({ channel: "C0PORT", text: "hey team" }))).toBe(200);
    expect((await slack.waitFor("chat.postMessage")).body).toMatchObject({ channel: "C0PORT", text: "hey team, how are you?" });
  });

  it("answers the command on its response_url", async () => {
    expect(await send(simulate.command("/sample-command", "", { response_url: slack.responseUrl("sample") }))).toBe(200);
    expect((await slack.waitFor("response_url")).body).toMatchObject({ text: "Responding to the sample command!" });
  });

  it("publishes the Home tab for home, not for messages", async () => {
    expect(await send(simulate.event("app_home_opened", { user: "U0HOME", channel: "D0HOME", tab: "messages" }))).toBe(200);
    expect(await send(simulate.event("app_home_opened", { user: "U0HOME", channel: "D0HOME", tab: "home" }))).toBe(200);
    const published = await slack.waitFor("views.publish");
    expect(published.body).toMatchObject({ user_id: "U0HOME", view: { type: "home" } });
    expect(slack.callsTo("views.publish")).toHaveLength(1);
  });

  it("opens the modal from the shortcut, updates it from its button, posts its submission", async () => {
    expect(await send(simulate.shortcut("sample_shortcut_id"))).toBe(200);
    expect((await slack.waitFor("views.open")).body).toMatchObject({ view: { callback_id: "sample_view_id" } });

    const view = { id: "V0MODAL", hash: "156772938.1827394" };
    expect(
      await send(simulate.blockActions("sample_action_id", "clicked", { view, channel: undefined, message: undefined })),
    ).toBe(200);
    expect((await slack.waitFor("views.update")).body).toMatchObject({ view_id: "V0MODAL", hash: view.hash });

    const values = {
      input_block_id: { sample_input_id: "ship it" },
      select_channel_block_id: { sample_dropdown_id: { type: "conversations_select", selected_conversation: "C0DREAMS" } },
    };
    expect(await send(simulate.viewSubmission("sample_view_id", values))).toBe(200);
    const posted = await slack.waitFor("chat.postMessage");
    expect(posted.body).toMatchObject({ channel: "C0DREAMS", text: expect.stringContaining("ship it") });
  });
});
