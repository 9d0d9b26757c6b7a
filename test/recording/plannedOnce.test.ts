import { afterEach, describe, expect, it, vi } from "vitest";
import { appMention } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { outboxRows } from "../support/outboxRows";
import { testApp } from "../support/testApp";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

afterEach(() => {
  vi.restoreAllMocks();
});

/** The plans made of one delivery (other test files' deliveries may share the isolate, and the app). */
const plansOf = (dedupeKey: string) =>
  vi.mocked(testApp.plan).mock.calls.filter(([inbound]) => inbound.dedupeKey === dedupeKey).length;

describe("a delivery is planned once", () => {
  it("the edge plans a mention and its plan goes with it: the shard records and answers it without planning it again", async () => {
    const team = newWorkspace();
    vi.spyOn(testApp, "plan");
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);
    const call = await slack().waitForCall((c) => c.method === "chat.postMessage");
    expect(call.body).toMatchObject({ thread_ts: (envelope.event as Record<string, unknown>).ts });
    expect(plansOf(String(envelope.event_id))).toBe(1);
  });

  it("a shard given no plan (an older edge's ingest) plans the delivery itself and records its rows", async () => {
    const team = newWorkspace();
    vi.spyOn(testApp, "plan");
    const inbound = eventDelivery(team, { ...appMention(), team });
    const result = await shardStub(team).ingest(inbound);
    expect(result).toMatchObject({ verdict: "accepted", enqueued: 1 });
    expect(plansOf(inbound.dedupeKey)).toBe(1);
    await slack().waitForCall((c) => c.method === "chat.postMessage");
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
    // Its completion rides on the shard's next write, or comes within a few milliseconds (completions.ts).
    await vi.waitFor(async () => expect(await outboxRows(shardStub(team))).toEqual([]));
  });
});
