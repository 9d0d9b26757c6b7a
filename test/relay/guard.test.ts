import { exports } from "cloudflare:workers";
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

/** Waits until the watch has counted `answered` answers in all. */
async function counted(answered: number): Promise<Health> {
  await vi.waitFor(async () => expect((await health()).answered).toBe(answered), { timeout: 5_000 });
  return health();
}

const watchAlerts = async () => {
  const { outbox, counters } = await watchStub().stats();
  return outbox.pending + outbox.parked + counters.delivered;
};

// One window for the whole file (storage is per test file): the tests build on each other.
describe("the guard against Slack's auto-disable", () => {
  it("fewer answers than GUARD_MIN_REQUESTS are never judged, even all failed", async () => {
    expect((await health()).answered).toBe(0);
    await badlySigned(19);
    const window = await counted(19);
    expect(window).toEqual({
      window_minutes: 60,
      answered: 19,
      failed: 19,
      by_cause: { "401": 19 },
      ratio: 1,
      app_rate_limited: { last_24h: 0, latest: null },
    });
    expect(await watchAlerts()).toBe(0);
  });

  it("counts every answer to Slack (GET /admin/health), and stays silent at or below the failure ratio", async () => {
    await wellSigned(30);
    await badlySigned(10);
    // Counts reach the watch a second after a failure (successes ride along), not per request.
    const window = await counted(59);
    expect(window).toMatchObject({ answered: 59, failed: 29, by_cause: { "401": 29 }, ratio: 0.492 });
    expect(await watchAlerts()).toBe(0);
    expect(guardAlerts()).toEqual([]);
  });

  it("requests without Slack's signature headers (scanners) are answered 401 and not counted", async () => {
    for (let i = 0; i < 5; i++) {
      const response = await exports.default.fetch(
        new Request("https://coordinator.test/slack/events", { method: "POST", body: "{}" }),
      );
      expect(response.status).toBe(401);
    }
    await badlySigned(1);
    expect((await counted(60)).failed).toBe(30);
  });

  it("a burst of badly signed requests: an alert naming 401 within 60 s, once", async () => {
    const started = Date.now();
    await badlySigned(40);
    await vi.waitFor(() => expect(guardAlerts()).toHaveLength(1), { timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(60_000);
    const window = await counted(100);
    expect(window).toMatchObject({ failed: 70, by_cause: { "401": 70 }, ratio: 0.7 });
    expect(guardAlerts()[0]).toMatch(
      /^:rotating_light: Slack may soon disable this app's events\. 401 invalid signature: \d+ % of \d+ requests in the last \d+ minutes? — was SLACK_SIGNING_SECRET changed\?/,
    );
    // More failures within 15 minutes do not repeat it.
    await badlySigned(5);
    await counted(105);
    await new Promise((settle) => setTimeout(settle, 300));
    expect(guardAlerts()).toHaveLength(1);
  });

  it("says once that it recovered when the ratio is well below the threshold again", async () => {
    // 75 of 105 failed; at 0.8 × 0.5 = 0.4 or less it has recovered: 90 answered 200 (and one more 401).
    await wellSigned(90);
    await badlySigned(1);
    const window = await counted(196);
    expect(window.ratio).toBeLessThanOrEqual(0.4);
    const recovered = () =>
      alerts().texts.filter((text) => text.startsWith(":white_check_mark: Answers to Slack are healthy again"));
    await vi.waitFor(() => expect(recovered()).toHaveLength(1), { timeout: 10_000 });
    expect(guardAlerts()).toEqual([]);
  });

  it("GET /admin/health needs the admin token", async () => {
    expect((await adminGet("/admin/health", null)).status).toBe(401);
  });
});
