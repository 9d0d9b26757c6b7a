import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSlack, SlackSimulator, waitUntilSettled } from "../../src/testing";

// Slack's custom-step template (its TypeScript version), ported (customStepTemplate.ts), in workerd.
let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;
const STEP_TOKEN = "xwfp-0000-step";

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(async () => {
  await waitUntilSettled({ shard: env.SHARD, workspace: team });
  vi.restoreAllMocks();
});

const send = async (request: Promise<Request>) => (await exports.default.fetch(await request)).status;

describe("the ported custom-step template", () => {
  it("sends the step's button to the user, and the click completes the step and updates the message", async () => {
    const executed = simulate.functionExecuted(
      "sample_function",
      { user_id: "U0STEP" },
      {
        function_execution_id: "Fx0PORT",
        bot_access_token: STEP_TOKEN,
      },
    );
    expect(await send(executed)).toBe(200);
    const posted = await slack.waitFor("chat.postMessage");
    // Slack's own token for the step, as Bolt's attachFunctionToken gives it.
    expect(posted.token).toBe(`Bearer ${STEP_TOKEN}`);
    expect(posted.body).toMatchObject({ channel: "U0STEP", text: "Click the button to signal the function has completed" });
    const [message] = slack.messagesIn("U0STEP");

    const click = {
      channel: { id: "U0STEP", name: "directmessage" },
      message: { type: "message", ts: message!.ts },
      user: { id: "U0STEP", username: "stepper", team_id: team },
      function_data: { execution_id: "Fx0PORT", function: { callback_id: "sample_function" }, inputs: { user_id: "U0STEP" } },
      bot_access_token: STEP_TOKEN,
      interactivity: { interactivity_pointer: "Fx0PORT.pointer", interactor: { id: "U0STEP", secret: "s" } },
    };
    expect(await send(simulate.blockActions("sample_button", "clicked", click))).toBe(200);
    const completed = await slack.waitFor("functions.completeSuccess");
    expect(completed.body).toEqual({ function_execution_id: "Fx0PORT", outputs: { user_id: "U0STEP" } });
    const updated = await slack.waitFor("chat.update");
    expect(updated.body).toMatchObject({ channel: "U0STEP", ts: message!.ts, text: "Function completed successfully!" });
    expect(slack.callsTo("functions.completeError")).toEqual([]);
  });
});
