import { describe, expect, it } from "vitest";
import { deliver, deliverWithSettings, mentionDelivery, newWorkspace, storedFor } from "../support/coordinator";

describe("settings in the Worker", () => {
  it("the edge reads only its own settings: a bad delivery setting in the Worker's env does not fail the edge", async () => {
    // (A shard reads its own settings from its env: a bad delivery value there pauses delivery,
    // not recording — test/delivery/pausedDelivery.test.ts.)
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    const response = await deliverWithSettings(delivery, { LEASE_MS: "soon" });
    expect(response.status).toBe(200);
    expect(await storedFor(team)).toMatchObject({ receipts: 1 });
  });

  it("a missing signing secret answers 500 (Slack retries), naming no setting to the caller", async () => {
    const { delivery } = await mentionDelivery(newWorkspace());
    const response = await deliverWithSettings(delivery, { SLACK_SIGNING_SECRET: "", SLACK_SIGNING_SECRET_PREVIOUS: "" });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-slack-no-retry")).toBeNull();
    expect(await response.text()).toBe("configuration error (see the Worker's log)");
    // And the Worker under its real settings is unaffected.
    expect((await deliver((await mentionDelivery(newWorkspace())).delivery)).status).toBe(200);
  });
});
