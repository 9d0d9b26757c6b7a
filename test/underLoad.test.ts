import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IMMEDIATE_IN_FLIGHT_MAX } from "../src/shard/Shard";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "./support/coordinator";
import { outboxRows } from "./support/outboxRows";
import { useFakeSlack } from "./support/useFakeSlack";

const slack = useFakeSlack();

describe("under load", () => {
  it("with the most immediate attempts in flight, a new delivery's row skips its own and waits unleased for the sweep", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    // Every reply hangs until its timeout (DELIVERY_TIMEOUT_MS), so these attempts stay in flight meanwhile.
    slack().fail({ method: "chat.postMessage" }, { hang: true }, IMMEDIATE_IN_FLIGHT_MAX);
    const busy = await Promise.all(
      Array.from({ length: IMMEDIATE_IN_FLIGHT_MAX }, async () => deliver((await mentionDelivery(team)).delivery)),
    );
    expect(busy.map((r) => r.status)).toEqual(Array(IMMEDIATE_IN_FLIGHT_MAX).fill(200));
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);

    const rows = await outboxRows(stub);
    const latest = rows.find((row) => row.idempotency_key === `${envelope.event_id}:run:event:app_mention`);
    expect(rows).toHaveLength(IMMEDIATE_IN_FLIGHT_MAX + 1);
    expect(latest).toMatchObject({ status: "pending", attempts: 0, claim_token: null });
    expect(rows.filter((row) => row.claim_token !== null)).toHaveLength(IMMEDIATE_IN_FLIGHT_MAX);
    // The hung attempts die with the instance instead of settling during later tests.
    await abortAllDurableObjects();
  });
});
