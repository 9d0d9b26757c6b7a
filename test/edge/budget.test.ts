import { afterEach, describe, expect, it, vi } from "vitest";
import type { Inbound } from "../../src/inbound/types";
import { signedEvent } from "../../src/testing/deliveries";
import { deliver, deliverWithSettings, mentionDelivery, newWorkspace, signedBy, storedFor } from "../support/coordinator";
import { EXPECTED_FAULT } from "../support/quietExpectedFaults";
import { Shard } from "../worker";

afterEach(() => vi.restoreAllMocks());

function durableObjectError(message: string, flags: { retryable?: boolean; overloaded?: boolean }): Error {
  return Object.assign(new Error(`${EXPECTED_FAULT} ${message}`), flags);
}

describe("the ack budget (ACK_BUDGET_MS)", () => {
  it("a shard slower than the budget → 503; its late commit adds no second set of outbox rows when Slack retries", async () => {
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team);
    const ingest = Shard.prototype.ingest;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let committed!: () => void;
    const lateCommit = new Promise<void>((resolve) => (committed = resolve));
    // The shard holds this ingest until the test has seen the 503, then commits it.
    vi.spyOn(Shard.prototype, "ingest").mockImplementationOnce(async function (this: Shard, inbound: Inbound) {
      await released;
      const result = ingest.call(this, inbound);
      committed();
      return result;
    } as unknown as Shard["ingest"]);

    // A short budget for this request alone: the Worker reads ACK_BUDGET_MS from the env it is given.
    const slow = await deliverWithSettings(delivery, { ACK_BUDGET_MS: "100" });
    expect(slow.status).toBe(503);
    expect(slow.headers.get("x-slack-no-retry")).toBeNull();

    release();
    await lateCommit;
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
    const retry = await deliver(await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_timeout" })));
    expect(retry.status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
  });

  it("a Durable Object error marked retryable is retried once on a fresh stub → 200", async () => {
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    const spy = vi.spyOn(Shard.prototype, "ingest").mockImplementationOnce(() => {
      throw durableObjectError("Network connection lost.", { retryable: true });
    });
    const response = await deliver(delivery);
    expect(response.status).toBe(200);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
  });

  it("an overloaded Durable Object is never retried → 503", async () => {
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    const spy = vi.spyOn(Shard.prototype, "ingest").mockImplementation(() => {
      throw durableObjectError("Durable Object is overloaded.", { retryable: true, overloaded: true });
    });
    const response = await deliver(delivery);
    expect(response.status).toBe(503);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("a retryable error that persists → 503 after exactly one retry", async () => {
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    const spy = vi.spyOn(Shard.prototype, "ingest").mockImplementation(() => {
      throw durableObjectError("Network connection lost.", { retryable: true });
    });
    const response = await deliver(delivery);
    expect(response.status).toBe(503);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
