import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { installationStub } from "../../src/rpc/installationStubs";
import { eventCallback, signedEvent } from "../../src/testing/deliveries";
import { deliver, shardStub, signedBy } from "../support/coordinator";
import { coordinatorEnv, install, installationOf, newTeam } from "../support/oauth";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** "search for Q" in a channel: the test app searches Q as the installing user (test/support/testApp.ts). */
async function searchFor(team: string, query: string): Promise<Response> {
  const message = { type: "message", channel: "C0SEARCH", user: "U0ASKER", text: `search for ${query}`, ts: "1700000000.000100" };
  return deliver(await signedEvent(eventCallback(message, { teamId: team }), signedBy()));
}

/** What the app said back (bot token), and the searches it made (whose token). */
async function outcome(team: string) {
  await vi.waitFor(() => expect(slack().callsTo("chat.postMessage").length).toBeGreaterThan(0));
  const [said] = slack().callsTo("chat.postMessage");
  return {
    said: { token: said?.token, text: said?.body.text },
    searches: slack()
      .callsTo("search.messages")
      .map((call) => ({ token: call.token, body: call.body })),
    workspace: (await installationOf(team))?.status,
  };
}

/** The installing user's token columns, as stored. */
function storedUserToken(team: string) {
  return runInDurableObject(installationStub(coordinatorEnv, team) as unknown as DurableObjectStub, (_, state) => {
    const [row] = state.storage.sql
      .exec<{ user_token: string | null; user_expires_at: number | null }>("SELECT user_token, user_expires_at FROM installation")
      .toArray();
    return row;
  });
}

describe("context.userToken (OAuth mode)", () => {
  it("is the installing user's token when the install granted user scopes: a call given it acts as that user", async () => {
    const team = newTeam();
    await install(slack(), { id: team, userToken: true });
    expect((await searchFor(team, "invoices")).status).toBe(200);
    expect(await outcome(team)).toEqual({
      said: { token: `Bearer xoxb-${team}-install`, text: "searched as the installing user: true" },
      // The token is the call's credential, not a field of its body.
      searches: [{ token: `Bearer xoxp-${team}-user`, body: { query: "invoices", sort: "timestamp", sort_dir: "desc" } }],
      workspace: "installed",
    });
    // Sealed at rest, as the bot's.
    expect((await storedUserToken(team))?.user_token).toMatch(/^v1\./);
  });

  it("is undefined when the install granted no user scopes", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    expect((await searchFor(team, "x")).status).toBe(200);
    expect(await outcome(team)).toMatchObject({ said: { text: "no user token" }, searches: [] });
  });

  it("rotates like the bot's token: within the refresh margin it is refreshed before the run gets it", async () => {
    const team = newTeam();
    await install(slack(), { id: team, userToken: true, userExpiresIn: 600 });
    expect((await searchFor(team, "q")).status).toBe(200);
    const { searches } = await outcome(team);
    expect(
      slack()
        .refreshCalls()
        .map((call) => call.body.refresh_token),
    ).toEqual([`xoxe-1-${team}-user`]);
    expect(searches.map((search) => search.token)).toEqual([`Bearer xoxe.xoxp-${team}-r1`]);
    expect((await storedUserToken(team))?.user_expires_at).toBeGreaterThan(Date.now() + 40_000_000);
  });

  it("a user token whose refresh Slack refuses is dropped; the bot's token and the workspace go on", async () => {
    const team = newTeam();
    await install(slack(), { id: team, userToken: true, userExpiresIn: 600 });
    slack().fail({ method: "oauth.v2.access" }, { error: "invalid_refresh_token" });
    expect((await searchFor(team, "q")).status).toBe(200);
    expect(await outcome(team)).toMatchObject({
      said: { token: `Bearer xoxb-${team}-install`, text: "no user token" },
      searches: [],
      workspace: "installed",
    });
    expect((await storedUserToken(team))?.user_token).toBeNull();
  });

  it("Slack rejecting the user's token (invalid_auth) parks that run, and never revokes the installation", async () => {
    const team = newTeam();
    await install(slack(), { id: team, userToken: true });
    slack().fail({ method: "search.messages" }, { error: "invalid_auth" });
    expect((await searchFor(team, "q")).status).toBe(200);
    await vi.waitFor(async () =>
      expect((await shardStub(team).listParked()).map((row) => row.last_error)).toEqual([
        expect.stringContaining("invalid_auth"),
      ]),
    );
    expect(await installationOf(team)).toMatchObject({ status: "installed" });
  });
});
