import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { ADMIN_TOKEN_MIN_LENGTH, authorizeAdmin } from "../../src/admin/authorizeAdmin";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { outboxRows, postMessage, seedEffects } from "../support/outboxRows";
import { TEST_BINDINGS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

function admin(path: string, init: RequestInit = {}, token: string | null = "test-admin-token") {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  return exports.default.fetch(new Request(`https://coordinator.test/admin${path}`, { ...init, headers }));
}

describe("operations API", () => {
  it("is disabled (404) without ADMIN_TOKEN and answers 401 without the right bearer token", async () => {
    await expect(authorizeAdmin(new Request("https://x/admin"), undefined)).rejects.toMatchObject({ status: 404 });
    expect((await admin("/shards/T1/0", {}, null)).status).toBe(401);
    expect((await admin("/shards/T1/0", {}, "wrong")).status).toBe(401);
  });

  it("in single-workspace mode there are no installations: the install endpoints and the list answer 404", async () => {
    expect((await admin("/installations")).status).toBe(404);
    expect((await admin("/installations/T1", { method: "DELETE" })).status).toBe(404);
    for (const path of ["/slack/install", "/slack/oauth_redirect?code=c&state=s"]) {
      expect((await exports.default.fetch(new Request(`https://coordinator.test${path}`))).status).toBe(404);
    }
  });

  it("shows a shard's counts, lists parked effects, replays and discards them", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage" }, { error: "not_in_channel" }, 2);
    const [first, second] = await seedEffects(stub, team, [
      { name: "a", effect: postMessage("C1") },
      { name: "b", effect: postMessage("C2") },
    ]);
    await runDurableObjectAlarm(stub);

    const stats = await (await admin(`/shards/${team}/0`)).json<{ outbox: { parked: number } }>();
    expect(stats.outbox).toEqual({ pending: 0, parked: 2, stopped: 0 });
    const parked = await (await admin(`/shards/${team}/0/parked`)).json<Array<{ idempotency_key: string; last_error: string }>>();
    expect(parked.map((p) => [p.idempotency_key, p.last_error])).toEqual([
      [first, "chat.postMessage: 200 not_in_channel"],
      [second, "chat.postMessage: 200 not_in_channel"],
    ]);

    expect((await admin(`/shards/${team}/0/parked/${encodeURIComponent(first!)}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin(`/shards/${team}/0/parked/${encodeURIComponent(first!)}`, { method: "DELETE" })).status).toBe(404);
    const replay = await admin(`/shards/${team}/0/parked/${encodeURIComponent(second!)}/replay`, { method: "POST" });
    expect(await replay.json()).toEqual({ replayed: 1 });
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((c) => c.body.channel),
    ).toEqual(["C1", "C2", "C2"]);
  });

  it("a shard still answers the dead-letter RPC names an earlier Worker calls (replay, discard) as their replacements do", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage" }, { error: "not_in_channel" }, 2);
    const [first, second] = await seedEffects(stub, team, [
      { name: "a", effect: postMessage("C1") },
      { name: "b", effect: postMessage("C2") },
    ]);
    await runDurableObjectAlarm(stub);
    expect(await stub.discard(first!)).toBe(true);
    expect(await stub.discard(first!)).toBe(false);
    expect(await stub.replay(second!)).toBe(1);
    expect(await stub.replay()).toBe(0);
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
  });

  it("a malformed percent-encoded key → 400 (the caller's error), not 500", async () => {
    const response = await admin(`/shards/${newWorkspace()}/0/parked/%E0%A4%A/replay`, { method: "POST" });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("malformed percent-encoding in the key");
  });

  it("reading a shard that was never written answers empty counts and creates no storage", async () => {
    const team = newWorkspace();
    const stats = await (await admin(`/shards/${team}/0`)).json<{ receipts: number; outbox: unknown }>();
    expect(stats).toMatchObject({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
    expect(await (await admin(`/shards/${team}/0/parked`)).json()).toEqual([]);
    const tables = await runInDurableObject(shardStub(team), (_, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master").toArray(),
    );
    expect(tables).toEqual([]);
  });

  it("a workspace id containing `/` is addressed percent-encoded", async () => {
    controlClock();
    const workspace = `E${newWorkspace()}/org`;
    const stub = shardStub(workspace);
    slack().fail({ method: "chat.postMessage" }, { error: "not_in_channel" });
    await seedEffects(stub, workspace, [{ name: "a", effect: postMessage("C1") }]);
    await runDurableObjectAlarm(stub);
    const stats = await (await admin(`/shards/${encodeURIComponent(workspace)}/0`)).json<{ outbox: unknown }>();
    expect(stats.outbox).toEqual({ pending: 0, parked: 1, stopped: 0 });
  });
});

/** An /admin request to the test Worker run with another ADMIN_TOKEN (undefined: unset). */
async function adminWithToken(path: string, adminToken: string | undefined, bearer: string | null) {
  const { default: worker } = await import("../worker");
  const headers: Record<string, string> = bearer === null ? {} : { authorization: `Bearer ${bearer}` };
  const request = new Request(`https://coordinator.test/admin${path}`, { headers }) as Parameters<typeof worker.fetch>[0];
  const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return worker.fetch(request, { ...env, ADMIN_TOKEN: adminToken } as unknown as Parameters<typeof worker.fetch>[1], context);
}

const logLines = (spy: { mock: { calls: unknown[][] } }, msg: string) =>
  spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>).filter((line) => line.msg === msg);

describe("the admin token", () => {
  it("shorter than 16 characters is a named configuration error for every /admin/* request, the right bearer included", async () => {
    const errors = vi.spyOn(console, "error");
    const short = "fifteen-chars!!";
    expect(short).toHaveLength(ADMIN_TOKEN_MIN_LENGTH - 1);
    for (const bearer of [short, "wrong", null]) {
      const response = await adminWithToken("/health", short, bearer);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe("configuration error (see the Worker's log)");
    }
    const [line] = logLines(errors, "admin request refused: configuration error");
    expect(line).toMatchObject({ setting: "ADMIN_TOKEN" });
    expect(line!.error).toContain("ADMIN_TOKEN must be at least 16 characters");
    expect(JSON.stringify(errors.mock.calls)).not.toContain(short);
    // Sixteen are enough: the tests' own token.
    expect(TEST_BINDINGS.ADMIN_TOKEN).toHaveLength(ADMIN_TOKEN_MIN_LENGTH);
    expect((await admin("/health")).status).toBe(200);
  });

  it("unset, /admin/* and the console do not exist (404)", async () => {
    expect((await adminWithToken("/health", undefined, "anything-at-all-here")).status).toBe(404);
    expect((await adminWithToken("/health", undefined, null)).status).toBe(404);
    expect((await adminWithToken("", undefined, null)).status).toBe(404);
  });

  it("failed logins are logged once a minute with their count, never the token or a part of it", async () => {
    const clock = controlClock();
    const warnings = vi.spyOn(console, "warn");
    const guess = "guessed-0123456789abcdef";
    // Whatever earlier tests left counted goes into a first line; a minute later the count starts afresh.
    expect((await admin("/health", {}, guess)).status).toBe(401);
    clock.advance(61_000);
    const before = logLines(warnings, "admin login failed").length;

    // From 50 clients: one client's sixth wrong token within a minute is throttled (loginThrottle.test.ts).
    for (let i = 0; i < 50; i++) {
      const client = { headers: { "cf-connecting-ip": `198.51.100.${i}` } };
      expect((await admin("/health", client, i % 2 === 0 ? guess : null)).status).toBe(401);
    }
    const flood = logLines(warnings, "admin login failed").slice(before);
    expect(flood).toEqual([
      {
        level: "warn",
        msg: "admin login failed",
        reason: "invalid bearer token",
        method: "GET",
        path: "/admin/health",
        failures: 1,
        sinceMs: expect.any(Number),
      },
    ]);

    // The next minute's first failure reports the 49 counted meanwhile, and itself.
    clock.advance(60_000);
    expect((await admin("/shards/T1/0", {}, null)).status).toBe(401);
    const next = logLines(warnings, "admin login failed").slice(before + 1);
    expect(next).toEqual([expect.objectContaining({ reason: "missing bearer token", path: "/admin/shards/T1/0", failures: 50 })]);
    // A login that works is not a failure.
    expect((await admin("/health")).status).toBe(200);
    expect(logLines(warnings, "admin login failed")).toHaveLength(before + 2);

    const logged = JSON.stringify(warnings.mock.calls);
    for (const secret of [guess, guess.slice(0, 6), TEST_BINDINGS.ADMIN_TOKEN]) expect(logged).not.toContain(secret);
  });
});
