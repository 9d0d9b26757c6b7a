import { describe, expect, it, vi } from "vitest";
import { adminGet, deliver, mentionDelivery, newWorkspace, watchStub } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";
import { appMention, eventCallback, signedEvent } from "../support/slackSimulator";

const { alerts } = useFakeSlackAndBackend();

const guardAlerts = () => alerts().texts.filter((text) => text.startsWith(":rotating_light:"));

interface Health {
  window_minutes: number;
  answered: number;
  failed: number;
  by_cause: Record<string, number>;
  ratio: number;
}

async function health(): Promise<Health> {
  const response = await adminGet("/admin/health");
  expect(response.status).toBe(200);
  return (await response.json()) as Health;
}

/** `n` events signed with a secret the coordinator does not know, as after a botched secret rotation. */
async function badlySigned(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const delivery = await signedEvent(eventCallback(appMention(), { teamId: newWorkspace() }), { secret: "not-the-secret" });
    expect((await deliver(delivery)).status).toBe(401);
  }
}

async function wellSigned(n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect((await deliver((await mentionDelivery(newWorkspace())).delivery)).status).toBe(200);
}

describe("the guard against Slack's auto-disable", () => {
  it("counts every answer to Slack over 60 minutes (GET /admin/health), and stays silent below the failure ratio", async () => {
    const before = await health();
    expect(before.window_minutes).toBe(60);
    await wellSigned(30);
    await badlySigned(10);
    // Counts reach the watch a second after a failure (successes ride along), not per request.
    await vi.waitFor(async () => expect((await health()).answered).toBe(before.answered + 40), { timeout: 5_000 });
    const after = await health();
    expect(after.failed).toBe(before.failed + 10);
    expect(after.by_cause["401"]).toBe((before.by_cause["401"] ?? 0) + 10);
    expect(after.ratio).toBe(Math.round((after.failed / after.answered) * 1000) / 1000);
    // 10 of 40 failed: below GUARD_FAILURE_RATIO (0.5), so nothing was alerted.
    expect((await watchStub().stats()).outbox.pending + (await watchStub().stats()).counters.delivered).toBe(0);
    expect(guardAlerts()).toEqual([]);
  });

  it("a burst of badly signed requests: an alert naming 401 within 60 s, once; /admin/health shows it", async () => {
    const started = Date.now();
    const before = await health();
    await badlySigned(40);
    await vi.waitFor(() => expect(guardAlerts()).toHaveLength(1), { timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(60_000);
    const now = await health();
    expect(now.by_cause["401"]).toBe((before.by_cause["401"] ?? 0) + 40);
    expect(now.ratio).toBeGreaterThan(0.5);
    expect(guardAlerts()[0]).toMatch(
      new RegExp(
        `^:rotating_light: Slack may soon disable this app's events\\. 401 invalid signature: \\d+ % of ${now.answered} requests in the last \\d+ minutes? — was SLACK_SIGNING_SECRET changed\\?`,
      ),
    );
    // More failures within 15 minutes do not repeat it.
    await badlySigned(5);
    await vi.waitFor(async () => expect((await health()).answered).toBe(now.answered + 5), { timeout: 5_000 });
    await new Promise((settle) => setTimeout(settle, 300));
    expect(guardAlerts()).toHaveLength(1);
  });

  it("GET /admin/health needs the admin token", async () => {
    expect((await adminGet("/admin/health", null)).status).toBe(401);
  });
});
