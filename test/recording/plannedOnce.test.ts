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

describe("a delivery is planned once", () => {
  it("the edge plans a mention and its plan goes with it: the shard records and answers it without planning it again", async () => {
    const team = newWorkspace();
    const plan = vi.spyOn(testApp, "plan");
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);
    const call = await slack().waitForCall((c) => c.method === "chat.postMessage");
    expect(call.body).toMatchObject({ thread_ts: (envelope.event as Record<string, unknown>).ts });
    expect(plan).toHaveBeenCalledTimes(1);
  });

  it("a shard given no plan (an older edge's ingest) plans the delivery itself and records its rows", async () => {
    const team = newWorkspace();
    const plan = vi.spyOn(testApp, "plan");
    const result = await shardStub(team).ingest(eventDelivery(team, { ...appMention(), team }));
    expect(result).toMatchObject({ verdict: "accepted", enqueued: 1 });
    expect(plan).toHaveBeenCalledTimes(1);
    await slack().waitForCall((c) => c.method === "chat.postMessage");
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
    // Its completion rides on the shard's next write, or comes within a few milliseconds (completions.ts).
    await vi.waitFor(async () => expect(await outboxRows(shardStub(team))).toEqual([]));
  });
});
