import { describe, expect, it, vi } from "vitest";
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

  it("an app's own SLACK_CLIENT_ID without a secret leaves OAuth mode off: named once with the fix, events still acked", async () => {
    const warnings = vi.spyOn(console, "warn");
    for (let n = 0; n < 2; n++) {
      const team = newWorkspace();
      const response = await deliverWithSettings((await mentionDelivery(team)).delivery, { SLACK_CLIENT_ID: "1234.5678" });
      expect(response.status).toBe(200);
      expect(await storedFor(team)).toMatchObject({ receipts: 1 });
    }
    const told = warnings.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((line) => line.setting === "SLACK_CLIENT_SECRET");
    expect(told).toEqual([
      {
        level: "warn",
        msg: "SLACK_CLIENT_ID is set but SLACK_CLIENT_SECRET is not: OAuth mode is off, every workspace uses SLACK_BOT_TOKEN",
        setting: "SLACK_CLIENT_SECRET",
        fix: "to install in many workspaces set SLACK_CLIENT_SECRET and TOKEN_ENCRYPTION_KEY; if SLACK_CLIENT_ID is your app's own variable, remove it from the coordinator's env or rename it",
      },
    ]);
  });
});
