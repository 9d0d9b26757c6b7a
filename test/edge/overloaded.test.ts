import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Plan } from "../../src/app/contract";
import type { Inbound } from "../../src/inbound/types";
import type { HealthWindow } from "../../src/rpc/watch";
import { recordSettings } from "../../src/settings";
import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { waitUntilSettled } from "../../src/testing/shardSettled";
import { controlClock } from "../support/clock";
import { adminGet, deliver, deliverWithSettings, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { latch } from "../support/latch";
import { useFakeSlack } from "../support/useFakeSlack";
import { Shard } from "../worker";

// Issue 43: Cloudflare refuses requests queued too long in front of a Durable Object ("Durable Object is overloaded");
// local workerd queues them all. A shard now refuses, writing nothing, an ingest that reached it more than
// OVERLOAD_WAIT_MS after the edge received its request; the edge answers 503 and Slack's retry is recorded once.

const slack = useFakeSlack();
afterEach(() => vi.restoreAllMocks());

const { overloadWaitMs } = recordSettings(env as never);

/** The next ingest's turn at its shard comes `ms` after the edge received its request, as behind a queue. */
function nextIngestQueuedFor(clock: { advance(ms: number): number }, ms: number) {
  const ingest = Shard.prototype.ingest;
  return vi.spyOn(Shard.prototype, "ingest").mockImplementationOnce(function (this: Shard, inbound: Inbound, plan?: Plan) {
    clock.advance(ms);
    return ingest.call(this, inbound, plan);
  } as Shard["ingest"]);
}

const replies = () => slack().calls.filter((call) => call.method === "chat.postMessage").length;

describe("a shard past its capacity refuses what it cannot serve in time", () => {
  it("an ingest queued past OVERLOAD_WAIT_MS → 503, nothing written; Slack's retry is recorded once and delivered once", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const envelope = eventCallback(appMention(), { teamId: team });

    const spy = nextIngestQueuedFor(clock, overloadWaitMs + 1);
    const refused = await deliver(await signedEvent(envelope, signedBy()));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("x-slack-no-retry")).toBeNull();
    expect(await refused.text()).toBe("shard overloaded; retry later");
    // Overloaded is never retried at the edge: one call, and nothing recorded or sent.
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
    const { counters } = await shardStub(team).stats();
    expect(counters).toMatchObject({ overloaded: 1, accepted: 0, rowsWritten: 0 });
    expect(replies()).toBe(0);
    // Slack's view of the answer, for the guard: a cause of its own, apart from a record that failed or was slow.
    const byCause = async () => ((await (await adminGet("/admin/health")).json()) as HealthWindow).by_cause;
    await vi.waitFor(async () => expect(await byCause()).toEqual({ "503:overloaded": 1 }), { timeout: 5_000 });

    // Slack retries later; the shard has room now.
    const retry = await deliver(await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_error" })));
    expect(retry.status).toBe(200);
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toMatchObject({ pending: 0, parked: 0 });
    const again = await deliver(await signedEvent(envelope, signedBy({ retryNum: 2, retryReason: "http_error" })));
    expect(again.status).toBe(200);
    expect(await storedFor(team)).toMatchObject({ receipts: 1 });
    expect(replies()).toBe(1);
    expect((await shardStub(team).stats()).counters).toMatchObject({ overloaded: 1, accepted: 1 });
  });

  it("an ingest that waited exactly OVERLOAD_WAIT_MS is recorded", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    nextIngestQueuedFor(clock, overloadWaitMs);
    const response = await deliver(await signedEvent(eventCallback(appMention(), { teamId: team }), signedBy()));
    expect(response.status).toBe(200);
    expect(await storedFor(team)).toMatchObject({ receipts: 1 });
    expect((await shardStub(team).stats()).counters).toMatchObject({ overloaded: 0, accepted: 1 });
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
  });

  it("SHARD_INGESTS_IN_FLIGHT_MAX ingests unanswered from this instance to one shard → the next is refused at once, the shard never asked", async () => {
    const team = newWorkspace();
    const envelopes = [1, 2, 3].map(() => eventCallback(appMention(), { teamId: team }));
    const [first, second, third] = await Promise.all(envelopes.map((envelope) => signedEvent(envelope, signedBy())));
    const { open, opened } = latch();
    const ingest = Shard.prototype.ingest;
    const held = async function (this: Shard, inbound: Inbound, plan?: Plan) {
      await opened;
      return ingest.call(this, inbound, plan);
    } as Shard["ingest"];
    // The shard holds the first two ingests unanswered, as a busy one would.
    const spy = vi.spyOn(Shard.prototype, "ingest").mockImplementationOnce(held).mockImplementationOnce(held);
    const settings = { SHARD_INGESTS_IN_FLIGHT_MAX: "2" };
    const waiting = [deliverWithSettings(first!, settings), deliverWithSettings(second!, settings)];
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2));

    const refused = await deliverWithSettings(third!, settings);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("x-slack-no-retry")).toBeNull();
    expect(await refused.text()).toBe("shard overloaded; retry later");
    expect(spy).toHaveBeenCalledTimes(2);

    open();
    expect(await Promise.all(waiting.map(async (response) => (await response).status))).toEqual([200, 200]);
    // Answered, they no longer count: Slack's retry of the third is recorded.
    const retry = await deliverWithSettings(
      await signedEvent(envelopes[2]!, signedBy({ retryNum: 1, retryReason: "http_error" })),
      settings,
    );
    expect(retry.status).toBe(200);
    expect(await storedFor(team)).toMatchObject({ receipts: 3 });
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
  });
});
