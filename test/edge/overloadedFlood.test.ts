import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Plan } from "../../src/app/contract";
import type { Inbound } from "../../src/inbound/types";
import { recordSettings } from "../../src/settings";
import { appMention, eventCallback, signedEvent, slackId } from "../../src/testing/deliveries";
import { waitUntilSettled } from "../../src/testing/shardSettled";
import { controlClock } from "../support/clock";
import { deliverWithSettings, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";
import { Shard } from "../worker";

// Issue 43: a flood into one shard. Local workerd queues every request, so without a bound every ingest is
// recorded however long it waited, and each waits behind all the others. The shard's clock is held here and
// moved by the work it does: each recorded ingest costs its turn INGEST_COST_MS, so the ingests behind it wait
// that much longer — the queue, by counts, with no timing in the test.

const slack = useFakeSlack();
afterEach(() => vi.restoreAllMocks());

const FLOOD = 400;
const INGEST_COST_MS = 5;
const { overloadWaitMs } = recordSettings(env as never);
// The shard's own bound alone: the edge's (SHARD_INGESTS_IN_FLIGHT_MAX, test/edge/overloaded.test.ts) lifted.
const deliver = (delivery: Parameters<typeof deliverWithSettings>[0]) =>
  deliverWithSettings(delivery, { SHARD_INGESTS_IN_FLIGHT_MAX: "100000" });
// The flood is several bounds deep.
expect(FLOOD * INGEST_COST_MS).toBeGreaterThan(3 * overloadWaitMs);

/** Each ingest the shard records holds its thread INGEST_COST_MS; a refusal costs it nothing here. */
function ingestsCost(clock: { advance(ms: number): number }) {
  const ingest = Shard.prototype.ingest;
  return vi.spyOn(Shard.prototype, "ingest").mockImplementation(async function (this: Shard, inbound: Inbound, plan?: Plan) {
    const result = await ingest.call(this, inbound, plan);
    clock.advance(INGEST_COST_MS);
    return result;
  } as Shard["ingest"]);
}

describe("a flood into one shard", () => {
  it("refuses what queued past OVERLOAD_WAIT_MS, delivers every accepted event once; Slack's retries of the rest are recorded once, delivered once", {
    timeout: 120_000,
  }, async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const mentions = Array.from({ length: FLOOD }, () => eventCallback(appMention({ channel: slackId("C") }), { teamId: team }));
    const channelOf = (envelope: (typeof mentions)[number]) => String((envelope.event as { channel: string }).channel);
    const repliesIn = (channel: string) =>
      slack().calls.filter((call) => call.method === "chat.postMessage" && call.body.channel === channel).length;
    const deliveries = await Promise.all(mentions.map((envelope) => signedEvent(envelope, signedBy())));

    const costs = ingestsCost(clock);
    const statuses = await Promise.all(deliveries.map(async (delivery) => (await deliver(delivery)).status));
    const acked = mentions.filter((_, i) => statuses[i] === 200);
    const refused = mentions.filter((_, i) => statuses[i] === 503);
    expect(acked.length + refused.length).toBe(FLOOD);
    // Some queued past the bound (FLOOD × INGEST_COST_MS is several bounds), and some did not.
    expect(refused.length).toBeGreaterThan(0);
    expect(acked.length).toBeGreaterThan(0);
    const { counters } = await shardStub(team).stats();
    expect(counters).toMatchObject({ accepted: acked.length, overloaded: refused.length });
    expect((await shardStub(team).stats()).receipts).toBe(acked.length);

    // Every accepted event is delivered, once; nothing was sent for a refused one.
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team, timeoutMs: 60_000 })).toMatchObject({
      pending: 0,
      parked: 0,
    });
    expect(acked.map((envelope) => repliesIn(channelOf(envelope)))).toEqual(acked.map(() => 1));
    expect(refused.map((envelope) => repliesIn(channelOf(envelope)))).toEqual(refused.map(() => 0));

    // Slack retries the refused events later, when the shard has room: each recorded once and delivered once.
    costs.mockRestore();
    const retries = await Promise.all(
      refused.map(
        async (envelope) =>
          (await deliver(await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_error" })))).status,
      ),
    );
    expect(retries).toEqual(refused.map(() => 200));
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team, timeoutMs: 60_000 })).toMatchObject({
      pending: 0,
      parked: 0,
    });
    expect(mentions.map((envelope) => repliesIn(channelOf(envelope)))).toEqual(mentions.map(() => 1));
    const after = await shardStub(team).stats();
    expect(after.receipts).toBe(FLOOD);
    expect(after.counters).toMatchObject({ accepted: FLOOD, overloaded: refused.length });
  });
});
