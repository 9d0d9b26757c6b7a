import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { deliver, newWorkspace, signedBy } from "../support/coordinator";
import { expectRelaySigned, useFakeSlackAndBackend } from "../support/fakeBackend";
import { TEST_BINDINGS } from "../support/testBindings";

// Issue 42, point 5: a re-run in relay mode relays the kept payload, re-encoded and signed afresh, under the re-run's key.

const { slack, backend } = useFakeSlackAndBackend();

describe("relay mode: re-running an event", () => {
  // The file's first delivery starts the Worker and its shards: seconds on a loaded machine (the re-run itself takes ms).
  it("a slash command's re-run is relayed again as its form, under its new key, and its own listener answers again", {
    timeout: 20_000,
  }, async () => {
    const fields = slashCommandFields("/echo", "once more", { team_id: newWorkspace() });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await vi.waitFor(() => expect(backend().requests).toHaveLength(1));
    await vi.waitFor(() => expect(slack().callsTo("response_url")).toHaveLength(1));
    const answer = await exports.default.fetch(
      new Request(`https://coordinator.test/admin/api/events/${fields.trigger_id}/rerun`, {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_BINDINGS.ADMIN_TOKEN}`, "idempotency-key": "again" },
      }),
    );
    expect(answer.status).toBe(202);
    await vi.waitFor(() => expect(backend().requests).toHaveLength(2));
    const request = backend().requests[1]!;
    expect(request.headers.get("x-relay-delivery-id")).toBe(`${fields.trigger_id}:rerun:again`);
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    const form = Object.fromEntries(new URLSearchParams(request.text));
    const { token: _, ...kept } = fields;
    expect(form).toEqual(kept);
    await expectRelaySigned(request);
    await vi.waitFor(() => expect(slack().callsTo("response_url")).toHaveLength(2));
  });
});
