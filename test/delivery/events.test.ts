import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deliverClaimed } from "../../src/delivery/deliverClaimed";
import { type DeliveryEvent, DeliveryEvents } from "../../src/platform/deliveryEvents";
import { RetryAfterMemory, workspaceRateKey } from "../../src/platform/retryAfter";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { postMessage, seedEffects } from "../support/outboxRows";
import { courierOf } from "../support/shardIn";
import { LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

describe("delivery events", () => {
  it("every settled attempt is one typed event to every subscriber: delivered, retried, parked, postponed, fenceRejected", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ channel: "C-retry" }, { status: 500 }).fail({ channel: "C-park" }, { error: "channel_not_found" });
    await seedEffects(stub, team, [
      { name: "a", effect: postMessage("C-ok") },
      { name: "b", effect: postMessage("C-retry") },
      { name: "c", effect: postMessage("C-park") },
      { name: "d", effect: postMessage("C-wait") },
    ]);
    const seen = await runInDurableObject(stub, async (_, state) => {
      const events: DeliveryEvent[] = [];
      const alsoSeen: string[] = [];
      const retryAfters = new RetryAfterMemory();
      retryAfters.remember(workspaceRateKey(team, "chat.postMessage:C-wait"), Date.now() + 60_000, Date.now());
      const { courier } = courierOf(state, {
        retryAfters,
        events: new DeliveryEvents().subscribe((event) => events.push(event)).subscribe((event) => alsoSeen.push(event.type)),
      });
      const rows = courier.outbox.claimBatch("t1", Date.now(), LEASE_MS, 10);
      await deliverClaimed(courier, "t1", rows);
      // A stale attempt of a row it no longer holds is refused by the fence before it posts.
      await deliverClaimed(
        courier,
        "stale",
        rows.filter((row) => row.idempotency_key.endsWith(":b")),
      );
      return { events, alsoSeen };
    });
    const byKey = Object.fromEntries(seen.events.map((event) => [`${event.key}/${event.type}`, event]));
    expect(Object.keys(byKey).sort()).toEqual([
      "Ev-seeded:a/delivered",
      "Ev-seeded:b/fenceRejected",
      "Ev-seeded:b/retried",
      "Ev-seeded:c/parked",
      "Ev-seeded:d/postponed",
    ]);
    expect(byKey["Ev-seeded:b/retried"]).toMatchObject({
      shard: `${team}/0`,
      attempts: 1,
      reason: "chat.postMessage: 500 http_500",
    });
    expect(byKey["Ev-seeded:c/parked"]).toMatchObject({ attempts: 1, reason: "chat.postMessage: 200 channel_not_found" });
    expect(byKey["Ev-seeded:b/fenceRejected"]).toMatchObject({ step: "post" });
    expect(seen.alsoSeen.sort()).toEqual(seen.events.map((event) => event.type).sort());
  });

  it("a subscriber that throws affects neither delivery nor the other subscribers", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedEffects(stub, team, [{ name: "a", effect: postMessage("C1") }]);
    const seen = await runInDurableObject(stub, async (_, state) => {
      const types: string[] = [];
      const events = new DeliveryEvents()
        .subscribe(() => {
          throw new Error("subscriber bug");
        })
        .subscribe((event) => types.push(event.type));
      const { courier } = courierOf(state, { events });
      await deliverClaimed(courier, "t1", courier.outbox.claimBatch("t1", Date.now(), LEASE_MS, 10));
      return types;
    });
    expect(seen).toEqual(["delivered"]);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });
});
