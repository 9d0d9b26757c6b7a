import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { deliverClaimed } from "../../src/delivery/deliverClaimed";
import { LeaseRenewals } from "../../src/delivery/leaseRenewals";
import { stepFor } from "../../src/delivery/stepCheckpoints";
import { sweep } from "../../src/delivery/sweep";
import { LeaseLost } from "../../src/platform/errors";
import { Outbox } from "../../src/recording/outbox";
import { newRow } from "../../src/recording/outboxRows";
import { deliverySettings } from "../../src/settings";
import { signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { deliver, mentionDelivery, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows, postMessage, seedEffects, seedRows } from "../support/outboxRows";
import { EXPECTED_FAULT } from "../support/quietExpectedFaults";
import { courierOf, outboxOf } from "../support/shardIn";
import { DELIVERY_TIMEOUT_MS, LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

describe("immediate attempt after the commit", () => {
  it("an accepted mention is answered in its thread, with the bot token, without waiting for an alarm", async () => {
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);
    const call = await slack().waitForCall((c) => c.method === "chat.postMessage");
    const event = envelope.event as Record<string, unknown>;
    expect(call.token).toBe("Bearer xoxb-test-token");
    expect(call.body).toMatchObject({ channel: event.channel, thread_ts: event.ts });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("/echo TEXT posts TEXT to the command's response_url", async () => {
    const team = newWorkspace();
    const fields = slashCommandFields("/echo", "ship it", { team_id: team, response_url: slack().responseUrl("echo-1") });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    const call = await slack().waitForCall((c) => c.method === "response_url");
    expect(call.url).toBe(slack().responseUrl("echo-1"));
    expect(call.body).toMatchObject({ text: "ship it" });
    expect(call.token).toBeNull(); // response_url needs no token; never send it one
  });
});

describe("the alarm sweep", () => {
  it("500 twice, then OK → delivered exactly once, with backoff between attempts", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage" }, { status: 500 }, 2);
    await seedEffects(stub, team, [{ name: "reply", effect: postMessage("C1") }]);

    await runDurableObjectAlarm(stub);
    let [row] = await outboxRows(stub);
    expect(row).toMatchObject({ attempts: 1, claim_token: null, last_error: "chat.postMessage: 500 http_500" });
    expect(row!.next_attempt_at).toBeGreaterThanOrEqual(clock.now() + 2000);

    clock.advance(row!.next_attempt_at - clock.now());
    await runDurableObjectAlarm(stub);
    [row] = await outboxRows(stub);
    expect(row).toMatchObject({ attempts: 2 });
    expect(row!.next_attempt_at).toBeGreaterThanOrEqual(clock.now() + 4000);

    clock.advance(row!.next_attempt_at - clock.now());
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((c) => c.outcome),
    ).toEqual([expect.stringContaining("500"), expect.stringContaining("500"), "ok"]);
  });

  it("429 with Retry-After: 3 → no attempt before 3 s; the bucket's other rows wait too", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage", channel: "C1" }, { status: 429, retryAfter: 3 });
    await seedEffects(stub, team, [{ name: "first", effect: postMessage("C1") }], "Ev-a");
    const limitedAt = clock.now();
    await runDurableObjectAlarm(stub);
    const [first] = await outboxRows(stub);
    expect(first!.next_attempt_at).toBeGreaterThanOrEqual(limitedAt + 3000);

    // A second row for the same channel, due now, must not hammer Slack during Retry-After.
    clock.advance(1000);
    await seedEffects(stub, team, [{ name: "second", effect: postMessage("C1") }], "Ev-b");
    await runDurableObjectAlarm(stub);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
    const postponed = (await outboxRows(stub)).find((r) => r.idempotency_key === "Ev-b:second");
    expect(postponed).toMatchObject({ attempts: 0 });
    expect(postponed!.next_attempt_at).toBeGreaterThanOrEqual(limitedAt + 3000);

    clock.advance(limitedAt + 3000 - clock.now() - 1);
    await runDurableObjectAlarm(stub);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);

    clock.advance(first!.next_attempt_at - clock.now());
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((c) => c.outcome),
    ).toEqual([expect.stringContaining("429"), "ok", "ok"]);
  });

  it("a permanent error (channel_not_found) parks the row after one attempt; replay delivers it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" });
    const [key] = await seedEffects(stub, team, [{ name: "reply", effect: postMessage("C-gone") }]);
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([
      expect.objectContaining({ status: "parked", attempts: 1, last_error: "chat.postMessage: 200 channel_not_found" }),
    ]);
    expect(await stub.listParked()).toEqual([
      expect.objectContaining({ idempotency_key: key, last_error: "chat.postMessage: 200 channel_not_found" }),
    ]);

    clock.advance(3_600_000);
    await runDurableObjectAlarm(stub);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1); // parked rows are never retried by themselves

    expect(await stub.replay(key)).toBe(1);
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(slack().callsTo("chat.postMessage").at(-1)?.outcome).toBe("ok");
  });

  it("a transient error on the last allowed attempt parks the row as exhausted", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "chat.postMessage" }, { status: 503 });
    await seedEffects(stub, team, [{ name: "reply", effect: postMessage("C1") }]);
    const { maxAttempts } = deliverySettings(env).delivery.backoff;
    await runInDurableObject(stub, (_, state) => state.storage.sql.exec("UPDATE outbox SET attempts = ?", maxAttempts - 1));
    await runDurableObjectAlarm(stub);
    const [row] = await outboxRows(stub);
    expect(row).toMatchObject({ status: "parked", attempts: maxAttempts });
    expect(row!.last_error).toMatch(/^attempts exhausted; last: chat.postMessage: 503/);
  });

  it("idempotent-by-shape answers (already_reacted) count as delivered", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ method: "reactions.add" }, { error: "already_reacted" });
    await seedEffects(stub, team, [
      {
        name: "react",
        effect: { type: "slack.api", method: "reactions.add", body: { channel: "C1", timestamp: "1.2", name: "eyes" } },
      },
    ]);
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
  });

  it("a stored payload that cannot be read back is parked with the reason, as a counted attempt", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedRows(stub, [
      { key: "Ev-bad:reply", workspace: team, effectType: "slack.api", payload: "{not json", rateKey: null },
    ]);
    await runDurableObjectAlarm(stub);
    const [row] = await outboxRows(stub);
    expect(row).toMatchObject({ status: "parked", attempts: 1, claim_token: null });
    expect(row!.last_error).toMatch(/^stored effect is not JSON: /);
    expect(slack().calls).toHaveLength(0);
  });

  it("the alarm handler failing once still leaves an alarm armed, and the next one delivers", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedEffects(stub, team, [{ name: "reply", effect: postMessage("C1") }]);
    vi.spyOn(Outbox.prototype, "claimBatch").mockImplementationOnce(() => {
      throw new Error(`${EXPECTED_FAULT} SQLITE_BUSY`);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(slack().calls).toHaveLength(0);
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).not.toBeNull();

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await outboxRows(stub)).toEqual([]);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("a hung call does not hold up another row: it times out on its own while the other completes", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ channel: "C-hangs" }, { hang: true });
    // Keys sort the hung row first: a serial sweep would wait on it before the other.
    await seedEffects(stub, team, [
      { name: "a-hangs", effect: postMessage("C-hangs") },
      { name: "b-fine", effect: postMessage("C-fine") },
    ]);
    const settled: string[] = [];
    const { complete, retryLater } = Outbox.prototype;
    vi.spyOn(Outbox.prototype, "complete").mockImplementation(function (this: Outbox, ...args) {
      settled.push(`delivered ${args[0]}`);
      return complete.apply(this, args);
    });
    vi.spyOn(Outbox.prototype, "retryLater").mockImplementation(function (this: Outbox, ...args) {
      settled.push(`retry ${args[0]}: ${args[4]}`);
      return retryLater.apply(this, args);
    });
    await runDurableObjectAlarm(stub);
    expect(settled).toEqual([
      "delivered Ev-seeded:b-fine",
      `retry Ev-seeded:a-hangs: chat.postMessage: timeout after ${DELIVERY_TIMEOUT_MS} ms`,
    ]);
  });
});

/** A mention whose immediate attempt is in flight, stuck on a Slack call that never answers. */
async function mentionWithHungDelivery() {
  const clock = controlClock();
  const team = newWorkspace();
  slack().fail({ method: "chat.postMessage" }, { hang: true });
  const { delivery } = await mentionDelivery(team);
  expect((await deliver(delivery)).status).toBe(200);
  await slack().waitForCall();
  return { clock, stub: shardStub(team) };
}

describe("leases and fences", () => {
  it("concurrent claimers lease disjoint rows; re-claiming with the same token returns the same batch", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedEffects(
      stub,
      team,
      Array.from({ length: 10 }, (_, i) => ({ name: `e${i}`, effect: postMessage(`C${i}`) })),
    );
    const claims = await runInDurableObject(stub, (_, state) => {
      const now = Date.now();
      const outbox = outboxOf(state);
      const a = outbox.claimBatch("token-a", now, LEASE_MS, 4).map((r) => r.idempotency_key);
      const b = outbox.claimBatch("token-b", now, LEASE_MS, 4).map((r) => r.idempotency_key);
      const again = outbox.claimBatch("token-a", now, LEASE_MS, 4).map((r) => r.idempotency_key);
      return { a, b, again };
    });
    expect(claims.a).toHaveLength(4);
    expect(claims.b).toHaveLength(4);
    expect(claims.a.filter((key) => claims.b.includes(key))).toEqual([]);
    expect(claims.again).toEqual(claims.a);
  });

  it("an attempt whose lease ran out is fenced: its completion is rejected and counted, the new owner's counts", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    const [key] = await seedEffects(stub, team, [{ name: "reply", effect: postMessage("C1") }]);
    const outcome = await runInDurableObject(stub, (_, state) => {
      const outbox = outboxOf(state);
      outbox.claimBatch("stale", Date.now(), LEASE_MS, 10);
      clock.advance(LEASE_MS + 1);
      const reclaimed = outbox.claimBatch("fresh", Date.now(), LEASE_MS, 10).map((r) => r.idempotency_key);
      return { reclaimed, stale: outbox.complete(key!, "stale"), fresh: outbox.complete(key!, "fresh") };
    });
    expect(outcome).toEqual({ reclaimed: [key], stale: false, fresh: true });
  });

  it("a stale attempt that begins after its row was re-leased posts nothing, and is fenced out and counted; the new owner delivers", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    const [key] = await seedEffects(stub, team, [{ name: "reply", effect: postMessage("C1") }]);
    const outcome = await runInDurableObject(stub, async (_, state) => {
      const { courier, counters } = courierOf(state);
      const { outbox } = courier;
      const staleRows = outbox.claimBatch("stale", Date.now(), LEASE_MS, 10);
      clock.advance(LEASE_MS + 1); // the stale attempt overran its lease…
      const freshRows = outbox.claimBatch("fresh", Date.now(), LEASE_MS, 10); // …and the sweep re-leased the row
      await deliverClaimed(courier, "stale", staleRows);
      const afterStale = { rejections: counters.fenceRejections, owner: outbox.claimedBy("fresh").map((r) => r.idempotency_key) };
      await deliverClaimed(courier, "fresh", freshRows);
      return { afterStale, delivered: counters.delivered };
    });
    expect(outcome).toEqual({ afterStale: { rejections: 1, owner: [key] }, delivered: 1 });
    expect(await outboxRows(stub)).toEqual([]);
    // The stale attempt asked for its lease before posting (delivery/attemptPosts.ts): one post, the new owner's.
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("an attempt running longer than its lease renews it, so the sweep does not reclaim it mid-run", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    await seedEffects(stub, team, [{ name: "slow-run", effect: postMessage("C1") }]);
    // A short lease for this loop alone, so the shard's renewal timer (every quarter lease) fires within 0.1 s of real time.
    const leaseMs = 400;
    const stolen = await runInDurableObject(stub, async (_, state) => {
      const outbox = outboxOf(state);
      const rows = outbox.claimBatch("long", Date.now(), leaseMs, 10);
      let stolenMidRun = -1;
      const { courier } = courierOf(state, {
        delivery: { ...deliverySettings(env).delivery, leaseMs },
        leases: new LeaseRenewals(outbox, leaseMs),
        perform: async () => {
          clock.advance(leaseMs - 100); // most of the lease used up…
          await scheduler.wait(leaseMs / 2 + 50); // …while the renewal timer fires
          clock.advance(200); // past the original lease
          stolenMidRun = outbox.claimBatch("sweep", Date.now(), leaseMs, 10).length;
        },
      });
      await deliverClaimed(courier, "long", rows);
      return stolenMidRun;
    });
    expect(stolen).toBe(0);
    expect(await outboxRows(stub)).toEqual([]);
  });

  it("step checkpoints are fenced: a stale attempt cannot record, and overlapping attempts converge on the first result", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    const [key] = await seedEffects(stub, team, [{ name: "run", effect: postMessage("C1") }]);
    const outcome = await runInDurableObject(stub, async (_, state) => {
      const outbox = outboxOf(state);
      outbox.claimBatch("stale", Date.now(), LEASE_MS, 10);
      const staleStep = stepFor(outbox, key!, "stale");
      const first = await staleStep("placeholder", () => ({ ts: "1.000001" }));
      clock.advance(LEASE_MS + 1);
      outbox.claimBatch("fresh", Date.now(), LEASE_MS, 10);
      const freshStep = stepFor(outbox, key!, "fresh");
      const reused = await freshStep("placeholder", () => ({ ts: "never posted" }));
      const fenced = await staleStep("update", () => "late").then(
        () => "recorded",
        (e: unknown) => (e instanceof LeaseLost ? "LeaseLost" : String(e)),
      );
      return { first, reused, fenced };
    });
    expect(outcome).toEqual({ first: { ts: "1.000001" }, reused: { ts: "1.000001" }, fenced: "LeaseLost" });
  });

  it("a shard killed mid-delivery (no drain): the row is reclaimed once its lease expires and delivered", async () => {
    const { clock, stub } = await mentionWithHungDelivery();
    await abortAllDurableObjects();

    const [leased] = await outboxRows(stub);
    // Still leased to the attempt that died with the instance; nothing released it.
    expect(leased).toMatchObject({ status: "pending", attempts: 0, claim_token: expect.any(String) });
    await runDurableObjectAlarm(stub);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1); // lease still valid: not reclaimed yet

    clock.advance(LEASE_MS + 1);
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((c) => c.outcome),
    ).toEqual([expect.stringContaining("hang"), "ok"]);
  });

  it("a shard evicted mid-delivery (evictDurableObject): the attempt ends by its own timeout and a later sweep delivers", async () => {
    const { clock, stub } = await mentionWithHungDelivery();
    await evictDurableObject(stub); // drains in-flight work: the hung call times out and is scheduled for retry

    const [row] = await outboxRows(stub);
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      claim_token: null,
      last_error: `chat.postMessage: timeout after ${DELIVERY_TIMEOUT_MS} ms`,
    });
    clock.advance(row!.next_attempt_at - clock.now());
    await runDurableObjectAlarm(stub);
    expect(await outboxRows(stub)).toEqual([]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((c) => c.outcome),
    ).toEqual([expect.stringContaining("hang"), "ok"]);
  });
});

describe("the sweep over a long backlog", () => {
  it("claims twice as many rows each time a claim comes back full, up to 8 batches, and delivers every row once", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const names = Array.from({ length: 300 }, (_, i) => `row-${String(i).padStart(3, "0")}`);
    const limits = await runInDurableObject(stub, async (_, state) => {
      // Written unleased, as ingests past the immediate attempts' line leave them, with no alarm of the shard's own to race this sweep.
      // A channel each: pacing (one post a second per channel) holds none of them back.
      const rows = names.map((name, i) => newRow(`Ev-backlog:${name}`, team, postMessage(`C${i}`, name)));
      outboxOf(state).enqueue(rows, Date.now(), null);
      const { courier } = courierOf(state, { delivery: { ...deliverySettings(env).delivery, batchSize: 10 } });
      const claim = vi.spyOn(courier.outbox, "claimBatch");
      await sweep(courier, Date.now());
      return claim.mock.calls.map((call) => call[3]);
    });
    // 10 + 20 + 40 + 80 + 80 + 80 = 310 ≥ 300: six scans of the backlog instead of thirty.
    expect(limits).toEqual([10, 20, 40, 80, 80, 80]);
    expect(await outboxRows(stub)).toEqual([]);
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body.text)
        .sort(),
    ).toEqual(names);
  });
});
