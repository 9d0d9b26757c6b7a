import { afterEach, describe, expect, it, vi } from "vitest";
import { Outbox } from "../../src/recording/outbox";
import { signedEvent } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, signedBy, storedFor } from "../support/coordinator";
import { EXPECTED_FAULT } from "../support/quietExpectedFaults";

afterEach(() => vi.restoreAllMocks());

describe("one ingest transaction", () => {
  it("a failure after the receipt insert leaves neither receipt nor outbox rows; the retry then succeeds", async () => {
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team);
    // Outbox rows are written after the receipt inside the same transaction.
    const enqueue = vi.spyOn(Outbox.prototype, "enqueue").mockImplementationOnce(() => {
      throw new Error(`${EXPECTED_FAULT} disk full`);
    });

    const failed = await deliver(delivery);
    expect(failed.status).toBe(503);
    expect(failed.headers.get("x-slack-no-retry")).toBeNull();
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });

    const retry = await deliver(await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_error" })));
    expect(retry.status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
  });
});
