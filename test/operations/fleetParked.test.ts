import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { TEST_BINDINGS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

interface Page {
  parked: Array<{ shard: string; key: string; workspace: string; effect: string; lastError: string; parkedAt: number }>;
  cursor: string | null;
  unreachable: string[];
}

const list = async (query = "") => (await (await adminGet(`/admin/api/parked${query}`)).json()) as Page;

function adminPost(path: string, body: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request(`https://coordinator.test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_BINDINGS.ADMIN_TOKEN}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** A mention in a fresh workspace whose reply Slack refuses for good (parked at once). */
async function parkedMention(): Promise<string> {
  const team = newWorkspace();
  slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
  expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
  await vi.waitFor(async () => expect(await shardStub(team).listParked()).toHaveLength(1));
  return team;
}

describe("the dead-letter queue across the fleet (/admin/api/parked)", () => {
  it("lists parked effects of every shard newest first, a page at a time", async () => {
    const teams = [await parkedMention(), await parkedMention(), await parkedMention()];
    const all = await list();
    const mine = all.parked.filter((row) => teams.includes(row.workspace));
    expect(mine.map((row) => row.workspace)).toEqual([...teams].reverse());
    expect(mine[0]).toMatchObject({
      shard: `${teams[2]}/0`,
      effect: "run",
      lastError: "chat.postMessage: 200 channel_not_found",
    });
    expect(all.unreachable).toEqual([]);
    // Paging: one at a time, in the same order, until the cursor runs out.
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.parked.length).toBeLessThanOrEqual(1);
      seen.push(...page.parked.map((row) => row.key));
      cursor = page.cursor;
    }
    expect(seen).toEqual(all.parked.map((row) => row.key));
    expect((await adminGet("/admin/api/parked?cursor=garbage")).status).toBe(400);
    expect((await adminGet("/admin/api/parked?limit=0")).status).toBe(400);
  });

  it("replays by keys across shards, and discards a shard's, in one request each", async () => {
    const [first, second] = [await parkedMention(), await parkedMention()];
    const keyOf = async (team: string) => (await shardStub(team).listParked())[0]!.idempotency_key;
    const replay = await adminPost("/admin/api/parked/replay", { keys: [await keyOf(first)] });
    expect(await replay.json()).toMatchObject({ replayed: 1, unreachable: [] });
    await vi.waitFor(() =>
      expect(
        slack()
          .callsTo("chat.postMessage")
          .filter((call) => call.outcome === "ok"),
      ).toHaveLength(1),
    );
    expect(await shardStub(first).listParked()).toEqual([]);

    const discard = await adminPost("/admin/api/parked/discard", { shard: `${second}/0` });
    expect(await discard.json()).toMatchObject({ discarded: 1 });
    expect(await shardStub(second).listParked()).toEqual([]);
    expect((await adminPost("/admin/api/parked/replay", "{not json")).status).toBe(400);
    expect((await adminPost("/admin/api/parked/replay", { keys: "one" })).status).toBe(400);
  });

  it('never widens to the whole fleet by accident: everything needs {"all": true}', async () => {
    const team = await parkedMention();
    for (const body of [
      "",
      "{}",
      "[]",
      "null",
      "5",
      '{"key":["x"]}',
      '{"Keys":["x"]}',
      '{"shard":"T1/0","key":"x"}',
      '{"all":true,"shard":"T1/0"}',
    ])
      expect((await adminPost("/admin/api/parked/discard", body)).status, body).toBe(400);
    expect(await shardStub(team).listParked()).toHaveLength(1);
    const everything = await adminPost("/admin/api/parked/discard", { all: true });
    expect(((await everything.json()) as { discarded: number }).discarded).toBeGreaterThanOrEqual(1);
    expect(await shardStub(team).listParked()).toEqual([]);
  });
});
