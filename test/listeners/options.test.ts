import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SlackSimulator } from "../../src/testing/slackSimulator";
import { newWorkspace, storedFor } from "../support/coordinator";
import { TEST_SIGNING_SECRET } from "../support/secrets";

const option = (value: string) => ({ text: { type: "plain_text", text: value }, value });

describe("an options load (block_suggestion)", () => {
  it("is answered at once with the options app.options computes from what the user typed, and stores nothing", async () => {
    const team = newWorkspace();
    const simulate = new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });
    const response = await exports.default.fetch(await simulate.blockSuggestion("pick_team_env", "pr"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ options: [option("production"), option("preview")] });
    // Slack never retries a load and it changes nothing: no receipt, no outbox row, no shard written.
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("of a select no listener serves is acked empty, as any delivery without a handler", async () => {
    const team = newWorkspace();
    const simulate = new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });
    const response = await exports.default.fetch(await simulate.blockSuggestion("pick_nothing", "pr"));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("with a wrong signature is refused like any request", async () => {
    const simulate = new SlackSimulator({ signingSecret: "not-the-secret", teamId: newWorkspace() });
    expect((await exports.default.fetch(await simulate.blockSuggestion("pick_team_env", "pr"))).status).toBe(401);
  });
});
