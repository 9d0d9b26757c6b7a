import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { Installations } from "../../src/installations/Installations";
import { directoryStub, installationStub } from "../../src/rpc/installationStubs";
import { appMention, eventCallback, orgWideEnvelope, signedEvent, slackId } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, shardStub, signedBy, storedFor } from "../support/coordinator";
import { adminInstallations, browse, coordinatorEnv, install, installationOf, newTeam } from "../support/oauth";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

interface From {
  team: string;
  /** An org-wide install's events: the org's id, with is_enterprise_install. */
  org?: string;
}

async function deliverEvent(from: From, event: Record<string, unknown>): Promise<Response> {
  const envelope = eventCallback(event, {
    teamId: from.team,
    enterpriseId: from.org,
    isEnterpriseInstall: from.org !== undefined,
  });
  return deliver(await signedEvent(envelope, signedBy()));
}

/** Waits until the lifecycle rows of `workspace` are delivered: their change has reached its shards by then. */
const toldItsShards = (workspace: string) =>
  vi.waitFor(async () => expect((await storedFor(workspace)).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 }));

const mention = (from: From) => deliverEvent(from, appMention({ text: `hello from ${from.team}` }));

const postsWith = (token: string) =>
  slack()
    .callsTo("chat.postMessage")
    .filter((call) => call.token === `Bearer ${token}`);

describe("events in OAuth mode", () => {
  it("a workspace that has not installed the app answers 410 with x-slack-no-retry, and nothing is stored", async () => {
    const team = newTeam();
    const response = await mention({ team });
    expect(response.status).toBe(410);
    expect(response.headers.get("x-slack-no-retry")).toBe("1");
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("in steady state neither the ack nor the delivery asks the store: 20 events, one lookup of each kind", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    const status = vi.spyOn(Installations.prototype, "status");
    const token = vi.spyOn(Installations.prototype, "token");
    for (let i = 0; i < 20; i++) expect((await mention({ team })).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(20));
    expect(status).toHaveBeenCalledTimes(1);
    expect(token).toHaveBeenCalledTimes(1);
  });

  it("two workspaces: each one's effects carry its own installation's token", async () => {
    const [a, b] = [newTeam(), newTeam()];
    await install(slack(), { id: a });
    await install(slack(), { id: b });
    expect((await mention({ team: a })).status).toBe(200);
    expect((await mention({ team: b })).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(2));
    expect(postsWith(`xoxb-${a}-install`)).toHaveLength(1);
    expect(postsWith(`xoxb-${b}-install`)).toHaveLength(1);
  });

  it("an org-wide install serves events from two workspaces of the org, with the org's token", async () => {
    const org = slackId("E");
    await install(slack(), { id: org, orgWide: true });
    expect(await installationOf(org)).toMatchObject({ isEnterpriseInstall: true, enterpriseId: org, teamId: null });
    expect((await mention({ team: newTeam(), org })).status).toBe(200);
    expect((await mention({ team: newTeam(), org })).status).toBe(200);
    await vi.waitFor(() => expect(postsWith(`xoxb-${org}-install`)).toHaveLength(2));
  });

  it("team_access_granted / _revoked (org installs, no team_id) are accepted and kept on the installation", async () => {
    const org = slackId("E");
    await install(slack(), { id: org, orgWide: true });
    const envelope = (type: string, teamIds: string[]) => {
      const body = eventCallback({ type, team_ids: teamIds }, { enterpriseId: org, isEnterpriseInstall: true });
      delete body.team_id;
      (body.authorizations as Array<Record<string, unknown>>)[0]!.team_id = null;
      return body;
    };
    expect((await deliver(await signedEvent(envelope("team_access_granted", ["T1", "T2"]), signedBy()))).status).toBe(200);
    await vi.waitFor(async () => expect((await installationOf(org))?.teams).toEqual(["T1", "T2"]));
    expect((await deliver(await signedEvent(envelope("team_access_revoked", ["T1"]), signedBy()))).status).toBe(200);
    await vi.waitFor(async () => expect((await installationOf(org))?.teams).toEqual(["T2"]));
  });
});

describe("token rotation", () => {
  it("a token within the refresh margin of expiry is refreshed before use, and both new tokens are stored", async () => {
    const team = newTeam();
    await install(slack(), { id: team, expiresIn: 600 });
    expect((await mention({ team })).status).toBe(200);
    const post = await slack().waitForCall((call) => call.method === "chat.postMessage");
    expect(post.token).toBe(`Bearer xoxe.xoxb-${team}-r1`);
    const [refresh] = slack().refreshCalls();
    expect(refresh?.body.refresh_token).toBe(`xoxe-1-${team}-install`);
    // The new refresh token is what the next rotation spends: stored with the new access token.
    const stored = await installationOf(team);
    expect(stored?.tokenExpiresAt).toBeGreaterThan(Date.now() + 500_000);
  });

  it("25 effects needing a refresh at once make exactly one refresh call", async () => {
    const team = newTeam();
    await install(slack(), { id: team, expiresIn: 600 });
    const answers = await Promise.all(Array.from({ length: 25 }, () => mention({ team })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(200));
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(25), { timeout: 5000 });
    expect(slack().refreshCalls()).toHaveLength(1);
    expect(postsWith(`xoxe.xoxb-${team}-r1`)).toHaveLength(25);
  });

  it("the store itself makes one refresh for 25 concurrent askers (no isolate cache in between)", async () => {
    const team = newTeam();
    await install(slack(), { id: team, expiresIn: 600 });
    const store = installationStub(coordinatorEnv, team);
    const answers = await Promise.all(Array.from({ length: 25 }, () => store.token()));
    expect(slack().refreshCalls()).toHaveLength(1);
    expect(new Set(answers.map((answer) => (answer.status === "installed" ? answer.botToken : answer.status)))).toEqual(
      new Set([`xoxe.xoxb-${team}-r1`]),
    );
  });

  it("a refresh Slack refuses parks the effect with the reason, and the workspace then answers 410", async () => {
    const team = newTeam();
    await install(slack(), { id: team, expiresIn: 600 });
    slack().fail({ method: "oauth.v2.access" }, { error: "invalid_refresh_token" });
    expect((await mention({ team })).status).toBe(200);
    await vi.waitFor(async () => {
      const [parked] = await shardStub(team).listParked();
      expect(parked?.last_error).toContain("invalid_refresh_token");
    });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(0);
    expect(await installationOf(team)).toMatchObject({ status: "revoked" });
    expect((await mention({ team })).status).toBe(410);
  });
});

describe("token rotation when Slack fails", () => {
  it("a refresh that fails for now (Slack answers 503) is retried, and the effect is delivered with the new token", async () => {
    const clock = controlClock();
    const team = newTeam();
    await install(slack(), { id: team, expiresIn: 600 });
    slack().fail({ method: "oauth.v2.access" }, { status: 503 });
    expect((await mention({ team })).status).toBe(200);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.retried).toBe(1));
    expect(slack().callsTo("chat.postMessage")).toHaveLength(0);
    expect(await installationOf(team)).toMatchObject({ status: "installed" });

    await sweepUntilQuiet(shardStub(team), clock);
    expect(slack().refreshCalls()).toHaveLength(2);
    expect(postsWith(`xoxe.xoxb-${team}-r1`)).toHaveLength(1);
    expect((await shardStub(team).stats()).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });
});

/** The installing user's sealed token, as stored (null once dropped). */
async function userTokenOf(team: string): Promise<string | null> {
  return runInDurableObject(installationStub(coordinatorEnv, team) as unknown as DurableObjectStub, (_, state) => {
    const [row] = state.storage.sql.exec<{ user_token: string | null }>("SELECT user_token FROM installation").toArray();
    return row?.user_token ?? null;
  });
}

/**
 * The reply's attempt has settled into its retry: a row still in an attempt when the installation
 * goes is parked by that attempt's next try, not at once. (This team's posts: an earlier test's
 * shard may still be posting.)
 */
async function failedOnce(team: string): Promise<void> {
  await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.retried).toBe(1));
  expect(postsWith(`xoxb-${team}-install`)).toHaveLength(1);
}

describe("uninstall and revocation", () => {
  it("tokens_revoked naming only the installing user drops that user's token; the bot goes on", async () => {
    const team = newTeam();
    await install(slack(), { id: team, userToken: true });
    expect(await userTokenOf(team)).toMatch(/^v1\./);
    const revoked = { type: "tokens_revoked", tokens: { oauth: ["UINSTALLER"], bot: [] } };
    expect((await deliverEvent({ team }, revoked)).status).toBe(200);
    await vi.waitFor(async () => expect(await userTokenOf(team)).toBeNull());
    expect(await installationOf(team)).toMatchObject({ status: "installed" });
    expect((await mention({ team })).status).toBe(200);
  });

  it("app_uninstalled: later events answer 410, waiting effects are parked as 'app uninstalled', a reinstall works", async () => {
    // Held: the reply's retry waits until the uninstall has parked it.
    controlClock();
    const team = newTeam();
    await install(slack(), { id: team });
    // A reply that fails for now waits in the outbox for its retry.
    slack().fail({ method: "chat.postMessage" }, { status: 500 });
    expect((await mention({ team })).status).toBe(200);
    await failedOnce(team);

    expect((await deliverEvent({ team }, { type: "app_uninstalled" })).status).toBe(200);
    // The store applies it (the effect's immediate attempt) and tells the shards at once.
    await vi.waitFor(async () => {
      const parked = await shardStub(team).listParked();
      expect(parked.map((row) => row.last_error)).toEqual(["app uninstalled"]);
    });
    expect((await mention({ team })).status).toBe(410);
    expect(await installationOf(team)).toMatchObject({ status: "uninstalled", statusReason: "app uninstalled" });

    await install(slack(), { id: team });
    expect((await mention({ team })).status).toBe(200);
    await vi.waitFor(() => expect(postsWith(`xoxb-${team}-install`)).toHaveLength(2));
  });

  it("tokens_revoked naming the bot: waiting effects are parked, later events answer 410", async () => {
    controlClock();
    const team = newTeam();
    await install(slack(), { id: team });
    slack().fail({ method: "chat.postMessage" }, { status: 500 });
    expect((await mention({ team })).status).toBe(200);
    await failedOnce(team);
    const revoked = { type: "tokens_revoked", tokens: { oauth: [], bot: [`UB${team}`] } };
    expect((await deliverEvent({ team }, revoked)).status).toBe(200);
    await vi.waitFor(async () => {
      const parked = await shardStub(team).listParked();
      expect(parked.map((row) => row.last_error)).toEqual(["tokens revoked"]);
    });
    expect(await installationOf(team)).toMatchObject({ status: "revoked" });
    expect((await mention({ team })).status).toBe(410);
  });

  it("an org install's org-wide events naming only the enterprise (team_id absent or null) are applied to it", async () => {
    const orgWide = async (event: Record<string, unknown>, org: string, teamId: "absent" | "null") =>
      (await deliver(await signedEvent(orgWideEnvelope(event, org, teamId), signedBy()))).status;
    for (const teamId of ["absent", "null"] as const) {
      const org = slackId("E");
      await install(slack(), { id: org, orgWide: true });
      expect(await orgWide({ type: "team_access_granted", team_ids: ["T1", "T2"] }, org, teamId)).toBe(200);
      await vi.waitFor(async () => expect((await installationOf(org))?.teams).toEqual(["T1", "T2"]));
      expect(await orgWide({ type: "tokens_revoked", tokens: { oauth: [], bot: [`UB${org}`] } }, org, teamId)).toBe(200);
      await vi.waitFor(async () => expect(await installationOf(org)).toMatchObject({ status: "revoked" }));
      // The installation is written before its shards are told; the row applying it completes after.
      await toldItsShards(org);
      expect((await mention({ team: "T1", org })).status).toBe(410);

      const uninstalled = slackId("E");
      await install(slack(), { id: uninstalled, orgWide: true });
      expect(await orgWide({ type: "app_uninstalled" }, uninstalled, teamId)).toBe(200);
      await vi.waitFor(async () =>
        expect(await installationOf(uninstalled)).toMatchObject({ status: "uninstalled", statusReason: "app uninstalled" }),
      );
      await toldItsShards(uninstalled);
      expect((await mention({ team: "T1", org: uninstalled })).status).toBe(410);
    }
  });

  it("an uninstall's tokens_revoked and app_uninstalled, in either order, are both accepted and end uninstalled", async () => {
    for (const order of [
      ["tokens_revoked", "app_uninstalled"],
      ["app_uninstalled", "tokens_revoked"],
    ]) {
      const team = newTeam();
      await install(slack(), { id: team });
      for (const type of order) {
        const event = type === "tokens_revoked" ? { type, tokens: { oauth: ["UINSTALLER"], bot: [`UB${team}`] } } : { type };
        expect((await deliverEvent({ team }, event)).status).toBe(200);
        await vi.waitFor(async () => expect((await installationOf(team))?.status).not.toBe("installed"));
      }
      await vi.waitFor(async () => expect(await installationOf(team)).toMatchObject({ status: "uninstalled" }));
    }
  });
});

describe("tokens at rest and in the operations API", () => {
  it("the installation's SQLite rows hold no token in plaintext", async () => {
    const team = newTeam();
    await install(slack(), { id: team, expiresIn: 43_200, userToken: true });
    const tables = async (stub: DurableObjectStub) =>
      runInDurableObject(stub, (_, state) =>
        ["installation", "directory", "oauth_state"].map((table) => state.storage.sql.exec(`SELECT * FROM ${table}`).toArray()),
      );
    const dump = JSON.stringify([
      await tables(installationStub(coordinatorEnv, team) as unknown as DurableObjectStub),
      await tables(directoryStub(coordinatorEnv) as unknown as DurableObjectStub),
    ]);
    expect(dump).toContain(team);
    expect(dump).toMatch(/"v1\.[0-9a-f]{8}\./);
    for (const secret of [`xoxe.xoxb-${team}-install`, `xoxe-1-${team}-install`, `xoxp-${team}-user`, "xoxb", "xoxp", "xoxe"])
      expect(dump).not.toContain(secret);
  });

  it("GET /admin/installations lists without tokens; DELETE removes one, and its events answer 410", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    const listing = await adminInstallations();
    expect(listing.status).toBe(200);
    const text = await listing.text();
    expect(text).toContain(team);
    expect(text).not.toContain("xoxb");
    const admin = { authorization: `Bearer ${coordinatorEnv.ADMIN_TOKEN}` };
    const removed = await exportsDelete(`/admin/installations/${team}`, admin);
    expect(removed.status).toBe(200);
    expect(await installationOf(team)).toBeNull();
    expect((await mention({ team })).status).toBe(410);
    expect((await exportsDelete(`/admin/installations/${team}`, admin)).status).toBe(404);
    expect((await browse("/admin/installations")).status).toBe(401);
  });
});

async function exportsDelete(path: string, headers: Record<string, string>): Promise<Response> {
  const { exports } = await import("cloudflare:workers");
  return exports.default.fetch(new Request(`https://coordinator.test${path}`, { method: "DELETE", headers }));
}

describe("a token Slack rejects", () => {
  it("parks its effect and marks the installation revoked, so later events answer 410", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    slack().fail({ method: "chat.postMessage" }, { error: "token_revoked" });
    expect((await mention({ team })).status).toBe(200);
    await vi.waitFor(async () =>
      expect(await installationOf(team)).toMatchObject({
        status: "revoked",
        statusReason: "token rejected by Slack: token_revoked",
      }),
    );
    const parked = await shardStub(team).listParked();
    expect(parked.map((row) => row.last_error)).toEqual(["chat.postMessage: 200 token_revoked"]);
    expect((await mention({ team })).status).toBe(410);
  });

  it("a rejection of a token the installation no longer has (a reinstall since) changes nothing", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    expect(await installationStub(coordinatorEnv, team).tokenRejected("xoxb-an-older-token", "invalid_auth")).toBe(false);
    expect(await installationOf(team)).toMatchObject({ status: "installed" });
  });
});

describe("lifecycle events from before the latest install", () => {
  it("a late app_uninstalled (event_time before the reinstall) is ignored; the workspace keeps being served", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    const envelope = eventCallback({ type: "app_uninstalled" }, { teamId: team });
    envelope.event_time = Math.floor(Date.now() / 1000) - 120;
    expect((await deliver(await signedEvent(envelope, signedBy()))).status).toBe(200);
    // Not one event in between is refused: only the store judges a lifecycle event.
    for (let i = 0; i < 5; i++) expect((await mention({ team })).status).toBe(200);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(5));
    expect(await installationOf(team)).toMatchObject({ status: "installed" });
  });
});
