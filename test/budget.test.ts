import { afterEach, describe, expect, it, vi } from "vitest";
import { Shard } from "../src/index";
import type { Inbound } from "../src/inbound/types";
import { deliver, mentionDelivery, newWorkspace, signedBy, storedFor } from "./support/coordinator";
import { signedEvent } from "./support/slackSimulator";

afterEach(() => vi.restoreAllMocks());

const ACK_BUDGET_MS = 2000; // wrangler.toml

function durableObjectError(message: string, flags: { retryable?: boolean; overloaded?: boolean }): Error {
  return Object.assign(new Error(message), flags);
}

describe("the 2 s ack budget", () => {
  it("a shard slower than the budget → 503; its late commit adds no second set of outbox rows when Slack retries", async () => {
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team);
    const ingest = Shard.prototype.ingest;
    let committed!: () => void;
    const lateCommit = new Promise<void>((resolve) => (committed = resolve));
    const slowIngest = async function (this: Shard, inbound: Inbound) {
      await scheduler.wait(ACK_BUDGET_MS + 300);
      const result = ingest.call(this, inbound);
      committed();
      return result;
    };
    // The RPC caller awaits either way; the real method is synchronous.
    vi.spyOn(Shard.prototype, "ingest").mockImplementationOnce(slowIngest as unknown as Shard["ingest"]);

    const started = Date.now();
    const slow = await deliver(delivery);
    expect(slow.status).toBe(503);
    expect(slow.headers.get("x-slack-no-retry")).toBeNull();
    expect(Date.now() - started).toBeLessThan(ACK_BUDGET_MS + 250);

    await lateCommit;
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0 } });
    const retry = await deliver(await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_timeout" })));
    expect(retry.status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0 } });
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
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0 } });
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
