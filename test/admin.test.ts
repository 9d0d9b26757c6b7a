import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { authorizeAdmin } from "../src/admin/authorizeAdmin";
import { controlClock } from "./support/clock";
import { newWorkspace, shardStub } from "./support/coordinator";
import { outboxRows, postMessage, seedEffects } from "./support/outboxRows";
import { useFakeSlack } from "./support/useFakeSlack";

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
    expect(stats.outbox).toEqual({ pending: 0, parked: 2 });
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

  it("a malformed percent-encoded key → 400 (the caller's error), not 500", async () => {
    const response = await admin(`/shards/${newWorkspace()}/0/parked/%E0%A4%A/replay`, { method: "POST" });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("malformed percent-encoding in the key");
  });

  it("reading a shard that was never written answers empty counts and creates no storage", async () => {
    const team = newWorkspace();
    const stats = await (await admin(`/shards/${team}/0`)).json<{ receipts: number; outbox: unknown }>();
    expect(stats).toMatchObject({ receipts: 0, outbox: { pending: 0, parked: 0 } });
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
    expect(stats.outbox).toEqual({ pending: 0, parked: 1 });
  });
});
