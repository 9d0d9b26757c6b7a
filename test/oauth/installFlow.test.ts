import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { directoryStub } from "../../src/rpc/installationStubs";
import { controlClock } from "../support/clock";
import {
  accessAnswer,
  adminInstallations,
  browse,
  coordinatorEnv,
  install,
  installationOf,
  newTeam,
  startInstall,
} from "../support/oauth";
import { FAKE_SLACK_ORIGIN, OAUTH_TEST_BINDINGS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

// Three tests call the Worker module itself (with their own settings): its first import compiles the
// whole coordinator, which took more than a test's 5 s on a loaded machine. Paid here, once.
beforeAll(async () => {
  await import("../../src/index");
}, 60_000);

/** Nothing about `team` is stored: no installation, nothing in the admin list. */
async function expectNothingStored(team: string) {
  expect(await installationOf(team)).toBeNull();
  const listed = (await (await adminInstallations()).json()) as { installations: Array<{ id: string }> };
  expect(listed.installations.map((i) => i.id)).not.toContain(team);
}

describe("GET /slack/install", () => {
  it("redirects to Slack's authorize page with client id, scopes, redirect URI and a state bound to this browser", async () => {
    const { response, state } = await startInstall();
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${FAKE_SLACK_ORIGIN}/oauth/v2/authorize`);
    expect(location.searchParams.get("client_id")).toBe(OAUTH_TEST_BINDINGS.SLACK_CLIENT_ID);
    expect(location.searchParams.get("scope")).toBe("app_mentions:read,chat:write");
    expect(location.searchParams.get("redirect_uri")).toBe(OAUTH_TEST_BINDINGS.SLACK_REDIRECT_URI);
    expect(state).toMatch(/^v1\.\d{13}\.[\w-]{22}\.[\w-]{43}$/);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`slack-app-oauth-state=${state}`);
    for (const attribute of ["HttpOnly", "Secure", "SameSite=Lax", "Max-Age=600"]) expect(cookie).toContain(attribute);
  });
});

describe("GET /slack/oauth_redirect", () => {
  it("redeems the code (client credentials by Basic auth) and stores the installation; the page says where", async () => {
    const team = newTeam();
    const response = await install(slack(), { id: team });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Team ${team}`);
    const [call] = slack().callsTo("oauth.v2.access");
    expect(call?.token).toBe(
      `Basic ${btoa(`${OAUTH_TEST_BINDINGS.SLACK_CLIENT_ID}:${OAUTH_TEST_BINDINGS.SLACK_CLIENT_SECRET}`)}`,
    );
    expect(call?.body.redirect_uri).toBe(OAUTH_TEST_BINDINGS.SLACK_REDIRECT_URI);
    expect(call?.body).not.toHaveProperty("client_secret");
    expect(await installationOf(team)).toMatchObject({
      id: team,
      teamId: team,
      teamName: `Team ${team}`,
      isEnterpriseInstall: false,
      botUserId: `UB${team}`,
      botScopes: ["app_mentions:read", "chat:write"],
      userId: "UINSTALLER",
      status: "installed",
      tokenExpiresAt: null,
    });
  });

  it("a state is single-use: the same redirect again fails and changes nothing", async () => {
    const team = newTeam();
    const { state, cookie } = await startInstall();
    slack().issueCode("code-1", accessAnswer({ id: team }));
    expect((await browse(`/slack/oauth_redirect?code=code-1&state=${state}`, { cookie })).status).toBe(200);
    const other = newTeam();
    slack().issueCode("code-2", accessAnswer({ id: other }));
    const again = await browse(`/slack/oauth_redirect?code=code-2&state=${state}`, { cookie });
    expect(again.status).toBe(400);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(await again.text()).toContain("already used");
    await expectNothingStored(other);
  });

  it("an unknown state fails with 400 and stores nothing", async () => {
    const team = newTeam();
    slack().issueCode("code-x", accessAnswer({ id: team }));
    const response = await browse("/slack/oauth_redirect?code=code-x&state=never-issued", {
      cookie: "slack-app-oauth-state=never-issued",
    });
    expect(response.status).toBe(400);
    expect(slack().callsTo("oauth.v2.access")).toHaveLength(0);
    await expectNothingStored(team);
  });

  it("a state older than ten minutes fails with 400 and stores nothing", async () => {
    const clock = controlClock();
    const team = newTeam();
    const { state, cookie } = await startInstall();
    clock.advance(10 * 60_000 + 1);
    slack().issueCode("code-late", accessAnswer({ id: team }));
    const response = await browse(`/slack/oauth_redirect?code=code-late&state=${state}`, { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("expired");
    await expectNothingStored(team);
  });

  it("without this browser's cookie the install fails, and the state is spent all the same", async () => {
    const team = newTeam();
    const { state, cookie } = await startInstall();
    slack().issueCode("code-c", accessAnswer({ id: team }));
    const noCookie = await browse(`/slack/oauth_redirect?code=code-c&state=${state}`);
    expect(noCookie.status).toBe(400);
    expect(await noCookie.text()).toContain("cookie");
    // Consumed by its first use, successful or not.
    expect((await browse(`/slack/oauth_redirect?code=code-c&state=${state}`, { cookie })).status).toBe(400);
    await expectNothingStored(team);
  });

  it("access_denied (the user cancelled) answers 403 and stores nothing", async () => {
    const { state, cookie } = await startInstall();
    const response = await browse(`/slack/oauth_redirect?error=access_denied&state=${state}`, { cookie });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("access_denied");
    expect(slack().callsTo("oauth.v2.access")).toHaveLength(0);
  });

  it("Slack refusing the code (ok:false) answers 400 naming the error; stores nothing", async () => {
    const { state, cookie } = await startInstall();
    const response = await browse(`/slack/oauth_redirect?code=not-issued&state=${state}`, { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("invalid_code");
  });

  it("Slack unreachable answers 502; stores nothing", async () => {
    const team = newTeam();
    const { state, cookie } = await startInstall();
    slack()
      .issueCode("code-u", accessAnswer({ id: team }))
      .fail({ method: "oauth.v2.access" }, { reset: true });
    const response = await browse(`/slack/oauth_redirect?code=code-u&state=${state}`, { cookie });
    expect(response.status).toBe(502);
    await expectNothingStored(team);
  });

  it("a redirect without state is refused unless SLACK_OAUTH_ALLOW_NO_STATE is on", async () => {
    const team = newTeam();
    slack().issueCode("code-n", accessAnswer({ id: team }));
    const response = await browse("/slack/oauth_redirect?code=code-n");
    expect(response.status).toBe(400);
    await expectNothingStored(team);
  });

  it("with SLACK_OAUTH_ALLOW_NO_STATE=true a redirect without state (an org admin's install) is completed", async () => {
    const { default: worker } = await import("../../src/index");
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const allowing = { ...(env as unknown as CoordinatorEnv), SLACK_OAUTH_ALLOW_NO_STATE: "true" };
    const org = newTeam().replace(/^T/, "E");
    slack().issueCode("code-admin", accessAnswer({ id: org, orgWide: true }));
    const request = new Request("https://coordinator.test/slack/oauth_redirect?code=code-admin");
    const response = await worker.fetch(request as never, allowing, context);
    expect(response.status).toBe(200);
    expect(await installationOf(org)).toMatchObject({ id: org, isEnterpriseInstall: true });
  });

  it("with SLACK_INSTALL_SUCCESS_URL a completed install redirects there, and clears the state cookie", async () => {
    const { default: worker } = await import("../../src/index");
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const settings = { ...(env as unknown as CoordinatorEnv), SLACK_INSTALL_SUCCESS_URL: "https://example.test/welcome" };
    const team = newTeam();
    const { state, cookie } = await startInstall();
    slack().issueCode("code-s", accessAnswer({ id: team }));
    const request = new Request(`https://coordinator.test/slack/oauth_redirect?code=code-s&state=${state}`, {
      headers: { cookie },
    });
    const response = await worker.fetch(request as never, settings, context);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.test/welcome");
    expect(response.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await installationOf(team)).toMatchObject({ status: "installed" });
  });

  it("reinstalling updates the installation in place", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    await install(slack(), { id: team, botUserId: "UNEWBOT" });
    expect(await installationOf(team)).toMatchObject({ botUserId: "UNEWBOT", status: "installed" });
    const listed = (await (await adminInstallations()).json()) as { installations: Array<{ id: string }> };
    expect(listed.installations.filter((i) => i.id === team)).toHaveLength(1);
  });
});

describe("OAuth mode without TOKEN_ENCRYPTION_KEY", () => {
  it("install and Slack endpoints answer a configuration error and store nothing", async () => {
    const { default: worker } = await import("../../src/index");
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const broken = { ...(env as unknown as CoordinatorEnv), TOKEN_ENCRYPTION_KEY: "" };
    const page = await worker.fetch(new Request("https://coordinator.test/slack/install") as never, broken, context);
    expect(page.status).toBe(500);
    expect(await page.text()).toContain("TOKEN_ENCRYPTION_KEY");
    const events = await worker.fetch(
      new Request("https://coordinator.test/slack/events", { method: "POST", body: "{}" }) as never,
      broken,
      context,
    );
    expect(events.status).toBe(500);
    expect(await events.text()).toContain("configuration error");
  });
});

/** Rows in each of the directory's tables (the object that keeps OAuth states). */
function directoryRows(): Promise<Record<string, number>> {
  return runInDurableObject(directoryStub(coordinatorEnv) as unknown as DurableObjectStub, (_, state) => {
    const { sql } = state.storage;
    const tables = sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
      .toArray();
    return Object.fromEntries(
      tables.map(({ name }) => [name, sql.exec<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`).one().n]),
    );
  });
}

/** Redeems a fresh state with this browser's cookie (the user cancelled: nothing but the redemption is stored). */
async function redeemOne(): Promise<Response> {
  const { state, cookie } = await startInstall();
  return browse(`/slack/oauth_redirect?error=access_denied&state=${state}`, { cookie });
}

describe("OAuth states", () => {
  it("2,000 clicks on /slack/install store nothing: no table of the directory gains a row", async () => {
    await install(slack(), { id: newTeam() });
    const before = await directoryRows();
    for (let i = 0; i < 2000; i++) expect((await browse("/slack/install")).status).toBe(302);
    const after = await directoryRows();
    expect(after).toEqual(before);
    expect(Math.max(...Object.values(after))).toBeLessThan(100);
  }, 60_000);

  it("a state from another browser's cookie is refused, and spent", async () => {
    const team = newTeam();
    const mine = await startInstall();
    const theirs = await startInstall();
    slack().issueCode("code-o", accessAnswer({ id: team }));
    const crossed = await browse(`/slack/oauth_redirect?code=code-o&state=${mine.state}`, { cookie: theirs.cookie });
    expect(crossed.status).toBe(400);
    expect(await crossed.text()).toContain("another browser");
    expect((await browse(`/slack/oauth_redirect?code=code-o&state=${mine.state}`, { cookie: mine.cookie })).status).toBe(400);
    await expectNothingStored(team);
  });

  it("a state whose expiry or MAC was altered is refused and stores nothing", async () => {
    const { state } = await startInstall();
    const [version, expiresAt, nonce, mac] = state.split(".");
    const later = `${version}.${Number(expiresAt) + 3_600_000}.${nonce}.${mac}`;
    const forged = `${version}.${expiresAt}.${nonce}.${(mac ?? "").replace(/^./, (c) => (c === "A" ? "B" : "A"))}`;
    const before = await directoryRows();
    for (const altered of [later, forged]) {
      const response = await browse(`/slack/oauth_redirect?error=access_denied&state=${altered}`, {
        cookie: `slack-app-oauth-state=${altered}`,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("never issued here");
    }
    expect(await directoryRows()).toEqual(before);
  });

  it("a redeemed state is kept until it expires, then pruned at most 16 per redemption", async () => {
    const clock = controlClock();
    for (let i = 0; i < 40; i++) expect((await redeemOne()).status).toBe(403);
    const kept = (await directoryRows()).redeemed_state ?? 0;
    expect(kept).toBeGreaterThanOrEqual(40);
    clock.advance(10 * 60_000 + 1);
    await redeemOne();
    // One redemption removed 16 expired rows and added its own.
    expect((await directoryRows()).redeemed_state).toBe(kept - 16 + 1);
    for (let i = 0; i < 3; i++) await redeemOne();
    expect((await directoryRows()).redeemed_state).toBe(4);
  });

  it("a state issued by the directory (as Workers of the previous version ask) completes an install once", async () => {
    const team = newTeam();
    const state = await directoryStub(coordinatorEnv).openState();
    const cookie = `slack-app-oauth-state=${state}`;
    slack().issueCode("code-d", accessAnswer({ id: team }));
    expect((await browse(`/slack/oauth_redirect?code=code-d&state=${state}`, { cookie })).status).toBe(200);
    expect((await browse(`/slack/oauth_redirect?code=code-d&state=${state}`, { cookie })).status).toBe(400);
  });

  it("a state stored before states were signed still completes its install, once", async () => {
    const team = newTeam();
    await install(slack(), { id: newTeam() });
    const legacy = crypto.randomUUID();
    await runInDurableObject(directoryStub(coordinatorEnv) as unknown as DurableObjectStub, (_, state) => {
      state.storage.sql.exec("INSERT INTO oauth_state (state, expires_at) VALUES (?, ?)", legacy, Date.now() + 60_000);
    });
    const cookie = `slack-app-oauth-state=${legacy}`;
    slack().issueCode("code-l", accessAnswer({ id: team }));
    expect((await browse(`/slack/oauth_redirect?code=code-l&state=${legacy}`, { cookie })).status).toBe(200);
    expect((await browse(`/slack/oauth_redirect?code=code-l&state=${legacy}`, { cookie })).status).toBe(400);
    expect((await directoryRows()).oauth_state).toBe(0);
  });
});

describe("install result pages", () => {
  it("Slack's error parameter is logged once, cut to 100 characters, and the page names only OAuth's own codes", async () => {
    const warn = vi.spyOn(console, "warn");
    const { state, cookie } = await startInstall();
    const hostile = `<!channel>${"x".repeat(5000)}`;
    const response = await browse(`/slack/oauth_redirect?error=${encodeURIComponent(hostile)}&state=${state}`, { cookie });
    expect(response.status).toBe(403);
    const page = await response.text();
    expect(page).not.toContain("channel");
    expect(page).toContain("an error it did not name");
    const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("install failed"));
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0] ?? "{}") as { error?: string; problem?: string };
    expect(logged.error).toBe(hostile.slice(0, 100));
    expect(lines[0]?.split("<!channel>")).toHaveLength(2);
  });

  it("success and failure pages forbid framing, scripts and sniffing", async () => {
    const success = await install(slack(), { id: newTeam() });
    const failure = await browse("/slack/oauth_redirect?code=x&state=never-issued");
    for (const response of [success, failure]) {
      expect(response.headers.get("content-type")).toContain("text/html");
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("script-src");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
    expect([success.status, failure.status]).toEqual([200, 400]);
  });
});
