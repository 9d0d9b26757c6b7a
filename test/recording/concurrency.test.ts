import { describe, expect, it } from "vitest";
import { signedEvent } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, signedBy, storedFor } from "../support/coordinator";

describe("race-free dedupe", () => {
  it("25 concurrent deliveries of one event (first + retries) → all 200, one receipt, one set of outbox rows", async () => {
    const team = newWorkspace();
    const { envelope } = await mentionDelivery(team);
    const deliveries = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        signedEvent(envelope, signedBy(i === 0 ? {} : { retryNum: 1 + (i % 3), retryReason: "http_timeout" })),
      ),
    );
    const responses = await Promise.all(deliveries.map((d) => deliver(d)));
    expect(responses.map((r) => r.status)).toEqual(Array(25).fill(200));
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
  });

  it("two identical slash commands are two invocations (dedupe by trigger_id)", async () => {
    const { signedForm, slashCommandFields } = await import("../../src/testing/deliveries");
    const team = newWorkspace();
    for (let i = 0; i < 2; i++) {
      const response = await deliver(
        await signedForm(slashCommandFields("/echo", "same text", { team_id: team }), signedBy()),
        "/slack/commands",
      );
      expect(response.status).toBe(200);
    }
    expect(await storedFor(team)).toEqual({ receipts: 2, outbox: { pending: 2, parked: 0, stopped: 0 } });
  });
});
