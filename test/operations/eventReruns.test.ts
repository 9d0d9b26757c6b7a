import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { rerunDelivery } from "../../src/inbound/reruns";
import { postIdOf } from "../../src/slack/postIds";
import { appMention } from "../../src/testing/deliveries";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { mentionIn } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { TEST_BINDINGS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42, point 5 (the re-run half): POST /admin/api/events/{id}/rerun runs a recorded delivery's
// listeners again as a new delivery, linked both ways, once per idempotency key.

const slack = useFakeSlack();
afterEach(() => vi.restoreAllMocks());

type Story = { id: string; effects: Array<{ key: string; status: string }>; rerunOf?: string; reruns?: string[] };
type Rerun = { id: string; rerunOf: string; shard: string; verdict: string; enqueued?: number };

/** An operator's re-run of `id`: `key` as the Idempotency-Key header, `body` as the body, `token` null for none. */
function rerun(id: string, init: { key?: string; body?: string; token?: string | null; query?: string } = {}) {
  const { key, body, token = TEST_BINDINGS.ADMIN_TOKEN, query = "" } = init;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (key !== undefined) headers["idempotency-key"] = key;
  const url = `https://coordinator.test/admin/api/events/${encodeURIComponent(id)}/rerun${query}`;
  return exports.default.fetch(new Request(url, { method: "POST", headers, body }));
}

const story = async (id: string) => (await (await adminGet(`/admin/api/events/${encodeURIComponent(id)}`)).json()) as Story;

/** A mention in `team`, delivered and answered; its event_id. */
async function answeredMention(team: string): Promise<string> {
  const { envelope, delivery } = await mentionDelivery(team, {
    event: appMention({ channel: "C0RERUN01", ts: "1765000000.000200" }),
  });
  expect((await deliver(delivery)).status).toBe(200);
  await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(1));
  await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0));
  return String(envelope.event_id);
}

const postIds = () =>
  slack()
    .callsTo("chat.postMessage")
    .map((call) => postIdOf(call.body));

describe("re-running an event (POST /admin/api/events/{id}/rerun)", () => {
  it("a delivered mention posts again under a new key, and both stories link", async () => {
    const team = newWorkspace();
    const id = await answeredMention(team);
    const answer = await rerun(id, { key: "first-try" });
    expect(answer.status).toBe(202);
    const rerunId = `${id}:rerun:first-try`;
    expect((await answer.json()) as Rerun).toEqual({
      id: rerunId,
      rerunOf: id,
      shard: `${team}/0`,
      verdict: "accepted",
      enqueued: 1,
    });
    // Posted again, in the same thread: its post's id derives from the new key, so no lookup finds the first post.
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(2));
    const [first, second] = slack().callsTo("chat.postMessage");
    expect(second!.body).toMatchObject({ channel: "C0RERUN01", thread_ts: "1765000000.000200", text: "reply" });
    expect(postIds()[0]).toMatch(new RegExp(`^${id}:run:`));
    expect(postIds()[1]).toMatch(new RegExp(`^${rerunId}:run:`));
    expect(first!.body.thread_ts).toBe(second!.body.thread_ts);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0));
    // The new delivery's story names its original; the original's lists its re-run.
    const rerunStory = await story(rerunId);
    expect(rerunStory).toMatchObject({ id: rerunId, rerunOf: id, reruns: [] });
    expect(rerunStory.effects).toEqual([expect.objectContaining({ key: `${rerunId}:run:event:app_mention`, status: "done" })]);
    const original = await story(id);
    expect(original.reruns).toEqual([rerunId]);
    expect(original.rerunOf).toBeUndefined();
  });

  it("the same idempotency key twice runs once; without one, each call is a re-run of its own", async () => {
    const team = newWorkspace();
    const id = await answeredMention(team);
    expect((await rerun(id, { key: "double-click" })).status).toBe(202);
    const again = await rerun(id, { body: JSON.stringify({ idempotencyKey: "double-click" }) });
    expect(again.status).toBe(200);
    expect((await again.json()) as Rerun).toMatchObject({ id: `${id}:rerun:double-click`, verdict: "duplicate", enqueued: 0 });
    await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0));
    expect(slack().callsTo("chat.postMessage")).toHaveLength(2);
    // No key: one re-run per call.
    const [a, b] = await Promise.all([rerun(id), rerun(id)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(4));
    expect((await story(id)).reruns).toHaveLength(3);
    expect(new Set(postIds()).size).toBe(4);
  });

  it("refuses what it cannot run: a payload kept redacted or none (409), an unknown id (404), a wrong token (401), a bad key (400)", async () => {
    const team = newWorkspace();
    // Its shard is known to the watch's registry once the Worker has recorded a delivery there.
    const id = await answeredMention(team);
    // Recorded by the shard with an EVENT_PAYLOADS that keeps less (the Worker's shards keep it full).
    for (const [keeping, id] of [
      ["redacted", "Ev0REDACTED"],
      ["none", "Ev0NOPAYLOAD"],
    ] as const) {
      await runInDurableObject(shardStub(team), async (_, state) => {
        const shard = await workspaceShardIn(state, { settings: { EVENT_PAYLOADS: keeping } });
        await shard.recording.ingest(mentionIn(team, "C0KEPT001", `1765000000.00030${keeping.length}`, id));
      });
    }
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(3));
    const redacted = await rerun("Ev0REDACTED", { query: `?workspace=${team}` });
    expect(redacted.status).toBe(409);
    expect(await redacted.text()).toContain("EVENT_PAYLOADS=redacted");
    const none = await rerun("Ev0NOPAYLOAD", { query: `?workspace=${team}` });
    expect(none.status).toBe(409);
    expect(await none.text()).toContain("EVENT_PAYLOADS=none");
    expect((await rerun("Ev0NEVERSEEN")).status).toBe(404);
    expect((await rerun(id, { token: "not-the-token" })).status).toBe(401);
    expect((await rerun(id, { token: null })).status).toBe(401);
    expect((await rerun(id, { key: "has:colon" })).status).toBe(400);
    expect((await rerun(id, { key: "a", body: JSON.stringify({ idempotencyKey: "b" }) })).status).toBe(400);
    expect((await rerun(id, { body: JSON.stringify({ idempotency: "typo" }) })).status).toBe(400);
    // Nothing ran for any of them: no row, no post.
    expect((await story(id)).reruns).toEqual([]);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(3);
  });
});

describe("a re-run is a delivery of its own", () => {
  it("a fact-scoped listener's re-run is not deduped against its message's fact receipt, which still dedupes a twin", async () => {
    const factApp = new App();
    factApp.event("app_mention", { dedupe: "fact", run: async ({ say }) => void (await say("fact reply")) });
    const team = newWorkspace();
    const factId = `fact:${team}:C0FACT001:1765000000.000400:run:event:app_mention`;
    const rerunId = `${factId}:rerun:k1`;
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app: factApp });
      const { recording } = shard;
      expect((await recording.ingest(mentionIn(team, "C0FACT001", "1765000000.000400", "Ev0FACT01"))).verdict).toBe("accepted");
      const { inbound } = rerunDelivery("event", recording.eventStory(factId)!.payload, factId, "k1", false);
      expect(inbound).toMatchObject({ dedupeKey: rerunId, type: "app_mention", conversation: { threadTs: "1765000000.000400" } });
      expect(inbound.factKey).toBeUndefined();
      expect((await recording.ingest(inbound)).verdict).toBe("accepted");
      expect((await recording.ingest(inbound)).verdict).toBe("duplicate");
      // The message's twin event (another event_id) still meets the original's fact receipt.
      expect((await recording.ingest(mentionIn(team, "C0FACT001", "1765000000.000400", "Ev0FACT02"))).verdict).toBe("duplicate");
      expect(recording.eventStory(factId)?.reruns).toEqual([rerunId]);
      expect(recording.eventStory(rerunId)).toMatchObject({
        rerunOf: factId,
        effects: [{ key: `${rerunId}:run:event:app_mention` }],
      });
    });
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(2));
    expect(postIds()[1]).toMatch(new RegExp(`^${rerunId}:run:`));
  });
});
