import { describe, expect, expectTypeOf, it } from "vitest";
import { singleWorkspace } from "../../src/auth/authorize";
import { readyKinds } from "../../src/effects/registry";
import { InvalidSetting } from "../../src/platform/errors";
import { BackendResponses } from "../../src/relay/backendResponses";
import type { CoordinatorEnv } from "../../src/rpc/env";
import {
  alertSettings,
  deliverySettings,
  edgeSettings,
  inOAuthMode,
  oauthMode,
  oauthSettings,
  recordSettings,
  relayMode,
  spreadSettings,
} from "../../src/settings";
import { SETTINGS, type SettingName } from "../../src/settings/table";

const KEY = btoa(String.fromCharCode(...new Uint8Array(32)));

/** An env with every mode on, which records each name read from it. */
function recordingEnv(): { env: CoordinatorEnv; read: Set<string> } {
  const read = new Set<string>();
  const base = {
    SHARD: {},
    INSTALLATIONS: {},
    SLACK_SIGNING_SECRET: "s",
    SLACK_BOT_TOKEN: "xoxb-1",
    SLACK_CLIENT_ID: "1.2",
    SLACK_CLIENT_SECRET: "c",
    TOKEN_ENCRYPTION_KEY: KEY,
    TOKEN_ENCRYPTION_KEY_PREVIOUS: KEY,
    RELAY_URL: "http://127.0.0.1:1/slack/events",
  };
  const env = new Proxy(base, {
    get(target, name, receiver) {
      if (typeof name === "string") read.add(name);
      return Reflect.get(target, name, receiver);
    },
  });
  return { env: env as unknown as CoordinatorEnv, read };
}

describe("the settings table", () => {
  it("every setting a part reads is in the table, and every setting in the table is read", async () => {
    const { env, read } = recordingEnv();
    edgeSettings(env);
    recordSettings(env);
    const settings = deliverySettings(env);
    // Effect kinds read their own settings when a shard's delivery is wired (src/effects/).
    for (const role of ["workspace", "watch"] as const)
      readyKinds({ role, app: { plan: () => ({ ignore: "test" }) }, env, settings, backendResponses: new BackendResponses() });
    alertSettings(env);
    spreadSettings(env);
    oauthSettings(env);
    expect(oauthMode(env)).not.toBeNull();
    expect(relayMode(env)).not.toBeNull();
    await singleWorkspace({ workspace: "T1" }, env);
    const bindings = ["SHARD", "INSTALLATIONS"];
    expect([...read].filter((name) => !(name in SETTINGS) && !bindings.includes(name))).toEqual([]);
    // ADMIN_TOKEN is read by the router, per /admin request, as it is (authorizeAdmin checks it).
    const readElsewhere = ["ADMIN_TOKEN"];
    expect(Object.keys(SETTINGS).filter((name) => !read.has(name) && !readElsewhere.includes(name))).toEqual([]);
  });

  it("CoordinatorEnv types every setting of the table (derived from it)", () => {
    expectTypeOf<SettingName>().toExtend<keyof CoordinatorEnv>();
    expectTypeOf<CoordinatorEnv["LEASE_MS"]>().toEqualTypeOf<string | number | undefined>();
    expectTypeOf<CoordinatorEnv["SLACK_PACING"]>().toEqualTypeOf<string | boolean | undefined>();
    expectTypeOf<CoordinatorEnv["ADMIN_TOKEN"]>().toEqualTypeOf<string | undefined>();
  });

  it("switches are spelled true or false; on and off (and wrangler's [vars] booleans) are accepted too", () => {
    expect(deliverySettings({}).pacing).toBe(true);
    for (const [value, pacing] of [
      ["false", false],
      ["true", true],
      ["off", false],
      ["on", true],
      [false, false],
    ] as const)
      expect(deliverySettings({ SLACK_PACING: value }).pacing).toBe(pacing);
    expect(() => deliverySettings({ SLACK_PACING: "yes" })).toThrow(
      new InvalidSetting("SLACK_PACING", 'must be true or false (or on or off), got "yes"'),
    );
    const oauth = { SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c", TOKEN_ENCRYPTION_KEY: KEY };
    expect(oauthSettings(oauth)?.allowNoState).toBe(false);
    expect(oauthSettings({ ...oauth, SLACK_OAUTH_ALLOW_NO_STATE: "on" })?.allowNoState).toBe(true);
    expect(oauthSettings({ ...oauth, SLACK_OAUTH_ALLOW_NO_STATE: "true" })?.allowNoState).toBe(true);
    expect(() => oauthSettings({ ...oauth, SLACK_OAUTH_ALLOW_NO_STATE: "1" })).toThrow(
      /^SLACK_OAUTH_ALLOW_NO_STATE must be true/,
    );
  });

  it("a setting two parts read is read by one reader: SLACK_API_URL must be a URL for delivery as for OAuth", () => {
    const oauth = { SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c", TOKEN_ENCRYPTION_KEY: KEY };
    expect(() => oauthSettings({ ...oauth, SLACK_API_URL: "slack.com/api" })).toThrow(/^SLACK_API_URL must be an absolute URL/);
    expect(() => deliverySettings({ SLACK_API_URL: "slack.com/api" })).toThrow(/^SLACK_API_URL must be an absolute URL/);
    expect(deliverySettings({}).apiUrl).toBe(oauthSettings(oauth)?.apiUrl);
  });

  it("one function per mode: oauthMode is strict, inOAuthMode its lenient reading for a shard", () => {
    const shard = { SHARD: {} } as unknown as CoordinatorEnv;
    expect(oauthMode(shard)).toBeNull();
    expect(inOAuthMode(shard)).toBe(false);
    // One of the pair alone is not OAuth mode (often the app's own variable): off, and named once (test/edge/settings.test.ts).
    for (const half of [
      { ...shard, SLACK_CLIENT_ID: "1.2" },
      { ...shard, SLACK_CLIENT_SECRET: "c" },
    ]) {
      expect(oauthMode(half)).toBeNull();
      expect(inOAuthMode(half)).toBe(false);
    }
    const noKey = { ...shard, SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c" };
    expect(() => oauthMode(noKey)).toThrow(/^TOKEN_ENCRYPTION_KEY is not set/);
    expect(inOAuthMode(noKey)).toBe(true);
    const noBinding = { ...shard, SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c", TOKEN_ENCRYPTION_KEY: KEY };
    expect(() => oauthMode(noBinding)).toThrow(/^INSTALLATIONS binding is missing/);
    expect(inOAuthMode(noBinding)).toBe(true);
    expect(relayMode(shard)).toBeNull();
    expect(() =>
      relayMode({ ...shard, SLACK_SIGNING_SECRET: "s", RELAY_URL: "http://127.0.0.1:1/", RELAY_SYNC_MS: "2501" }),
    ).toThrow(/^RELAY_SYNC_MS/);
  });
});
