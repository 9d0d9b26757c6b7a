import { runDurableObjectAlarm } from "cloudflare:test";
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

  it("shows a shard's counts, lists parked effects, replays and discards them", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage" }, { error: "not_in_channel" }, 2);
    const [first, second] = await seedEffects(stub, team, [{ name: "a", effect: postMessage("C1") }, { name: "b", effect: postMessage("C2") }]);
    await runDurableObjectAlarm(stub);

    const stats = await (await admin(`/shards/${team}/0`)).json<{ outbox: { parked: number } }>();
    expect(stats.outbox).toEqual({ pending: 0, parked: 2 });
    const parked = await (await admin(`/shards/${team}/0/parked`)).json<Array<{ idempotency_key: string; last_error: string }>>();
    expect(parked.map((p) => [p.idempotency_key, p.last_error])).toEqual([[first, "chat.postMessage: 200 not_in_channel"], [second, "chat.postMessage: 200 not_in_channel"]]);

    expect((await admin(`/shards/${team}/0/parked/${encodeURIComponent(first!)}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin(`/shards/${team}/0/parked/${encodeURIComponent(first!)}`, { method: "DELETE" })).status).toBe(404);
    const replay = await admin(`/shards/${team}/0/parked/${encodeURIComponent(second!)}/replay`, { method: "POST" });
    expect(await replay.json()).toEqual({ replayed: 1 });
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(slack().callsTo("chat.postMessage").map((c) => c.body.channel)).toEqual(["C1", "C2", "C2"]);
  });
});
