import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { MAX_BODY_BYTES } from "../../src/platform/readRawBody";
import type { HealthWindow as Health } from "../../src/rpc/watch";
import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { adminGet, deliver, mentionDelivery, newWorkspace, watchStub } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";

const { alerts } = useFakeSlackAndBackend();

const guardAlerts = () => alerts().texts.filter((text) => text.startsWith(":rotating_light:"));
const recoveries = () => alerts().texts.filter((text) => text.startsWith(":white_check_mark: Answers to Slack are healthy"));

async function health(): Promise<Health> {
  const response = await adminGet("/admin/health");
  expect(response.status).toBe(200);
  return (await response.json()) as Health;
}

/** Each test its own two hours of the controlled clock: its window starts empty (the guard's state carries over). */
function clockOfTest(test: number) {
  const clock = controlClock();
  clock.advance(test * 2 * 3_600_000);
  return clock;
}

/** `n` events signed with a secret the coordinator does not know: a changed secret, or an outsider. */
async function badlySigned(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const delivery = await signedEvent(eventCallback(appMention(), { teamId: newWorkspace() }), { secret: "not-the-secret" });
    expect((await deliver(delivery)).status).toBe(401);
  }
}

async function wellSigned(n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect((await deliver((await mentionDelivery(newWorkspace())).delivery)).status).toBe(200);
}

/** What anyone can send without a secret: Slack's header names with garbage in them. */
async function garbled(n: number): Promise<void> {
  const headers = { "content-type": "application/json", "x-slack-signature": "x", "x-slack-request-timestamp": "x" };
  for (let i = 0; i < n; i++) expect((await deliver({ body: "{}", headers })).status).toBe(401);
}

/** Bodies over the cap with a fresh timestamp and a well-formed signature: refused before any verification. */
async function oversized(n: number): Promise<void> {
  const headers = {
    "content-type": "application/json",
    "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)),
    "x-slack-signature": `v0=${"ab".repeat(32)}`,
  };
  const body = "x".repeat(MAX_BODY_BYTES + 1);
  for (let i = 0; i < n; i++) expect((await deliver({ body, headers })).status).toBe(413);
}

/** Waits until the watch has counted `total` answers in all, judged or not. */
async function counted(total: number): Promise<Health> {
  await vi.waitFor(
    async () => {
      const window = await health();
      expect(window.answered + window.unverified).toBe(total);
    },
    { timeout: 5_000 },
  );
  return health();
}

const guard = async () => (await watchStub().alertState()).guard;

const watchAlerts = async () => {
  const { outbox, counters } = await watchStub().stats();
  return outbox.pending + outbox.parked + counters.delivered;
};

// One watch for the whole file (storage is per test file); each test starts an empty window.
describe("the guard against Slack's auto-disable", () => {
  it("outsiders' requests while verified traffic flows: counted apart as unverified, never alerted", async () => {
    const clock = clockOfTest(0);
    expect(await health()).toMatchObject({ answered: 0, unverified: 0 });
    // Three minutes: Slack's traffic, and an outsider sending 25+ garbled and forged requests (84 in all).
    for (let step = 1; step <= 6; step++) {
      clock.advance(30_000);
      await wellSigned(6);
      await garbled(5);
      await badlySigned(9);
      await counted(step * 20);
      expect(await guard()).toEqual({ alerting: false, lastAlertAt: null });
    }
    // Requests without Slack's signature headers (scanners) are answered 401 and not counted at all.
    for (let i = 0; i < 5; i++) {
      const request = new Request("https://coordinator.test/slack/events", { method: "POST", body: "{}" });
      expect((await exports.default.fetch(request)).status).toBe(401);
    }
    await garbled(1);
    expect(await counted(121)).toEqual({
      window_minutes: 60,
      answered: 36,
      failed: 0,
      by_cause: {},
      ratio: 0,
      unverified: 85,
      app_rate_limited: { last_24h: 0, latest: null },
    });
    expect(await watchAlerts()).toBe(0);
  }, 60_000);

  it("oversized bodies with a fresh timestamp and garbled headers stay unverified, even with no verified traffic", async () => {
    clockOfTest(1);
    expect(await health()).toMatchObject({ answered: 0, unverified: 0 });
    await oversized(25);
    await garbled(25);
    expect(await counted(50)).toMatchObject({ answered: 0, failed: 0, by_cause: {}, ratio: 0, unverified: 50 });
    expect(await guard()).toEqual({ alerting: false, lastAlertAt: null });
    expect(await watchAlerts()).toBe(0);
  });

  it("a changed secret — verified traffic turns into 401s — is alerted within 2 minutes, once, naming 401", async () => {
    const clock = clockOfTest(2);
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    // Three minutes of Slack's traffic (12 a minute), an outsider probing all along.
    for (let step = 1; step <= 6; step++) {
      clock.advance(30_000);
      await wellSigned(6);
      await garbled(1);
      await counted(step * 7);
    }
    // The secret changes: Slack's events and their retries are now all 401 (8 per 15 s).
    const changedAt = clock.now();
    let total = 42;
    while (!(await guard()).alerting) {
      expect(clock.advance(15_000) - changedAt).toBeLessThanOrEqual(120_000);
      await badlySigned(8);
      total += 8;
      await counted(total);
    }
    const alertedAt = (await guard()).lastAlertAt as number;
    expect(alertedAt - changedAt).toBeLessThanOrEqual(120_000);
    // Slack's own count sees those 401s: so do the guard and GET /admin/health.
    const window = await health();
    const judged401s = window.by_cause["401"] ?? 0;
    expect(judged401s).toBeGreaterThan(36);
    expect(window).toMatchObject({ answered: 36 + judged401s, failed: judged401s, by_cause: { "401": judged401s } });
    await runDurableObjectAlarm(watchStub());
    expect(guardAlerts()).toHaveLength(1);
    expect(guardAlerts()[0]).toMatch(
      /^:rotating_light: Slack may soon disable this app's events\. 401 invalid signature: \d+ % of \d+ requests in the last \d+ minutes? — was SLACK_SIGNING_SECRET changed\?/,
    );
    // More failures within 15 minutes do not repeat it.
    clock.advance(15_000);
    await badlySigned(8);
    await counted(total + 8);
    expect((await guard()).lastAlertAt).toBe(alertedAt);

    // The secret is fixed: verified answers arrive again, the mismatches are an outsider's as far as
    // the guard can tell, and it says once that it recovered.
    clock.advance(15_000);
    await wellSigned(3);
    await garbled(1);
    expect(await counted(total + 12)).toMatchObject({ answered: 39, failed: 0, by_cause: {} });
    expect(await guard()).toMatchObject({ alerting: false, lastAlertAt: alertedAt });
    await runDurableObjectAlarm(watchStub());
    expect(recoveries()).toHaveLength(1);
    expect(guardAlerts()).toHaveLength(1);
  }, 60_000);

  it("with no verified traffic to compare with, mismatches are judged: fewer than GUARD_MIN_REQUESTS never", async () => {
    clockOfTest(3);
    await badlySigned(19);
    expect(await counted(19)).toMatchObject({ answered: 19, failed: 19, by_cause: { "401": 19 }, ratio: 1, unverified: 0 });
    expect((await guard()).alerting).toBe(false);
    await badlySigned(6);
    await counted(25);
    expect((await guard()).alerting).toBe(true);
  });

  it("GET /admin/health needs the admin token", async () => {
    expect((await adminGet("/admin/health", null)).status).toBe(401);
  });
});
