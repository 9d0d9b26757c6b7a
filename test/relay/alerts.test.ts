import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { signedEvent, signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { streakAlert } from "../../src/watch/alertTexts";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub, signedBy, watchStub } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";
import { HANDLER_MAX_ATTEMPTS, RELAY_BACKEND_URL, TEST_BINDINGS } from "../support/testBindings";

const { slack, backend, alerts } = useFakeSlackAndBackend();

const relayed = () => backend().requests;
const warnings = () => alerts().texts.filter((text) => text.startsWith(":warning:"));
const recoveries = () => alerts().texts.filter((text) => text.startsWith(":white_check_mark:"));
const parkedAlerts = () => alerts().texts.filter((text) => text.startsWith(":parking:"));

describe("app_rate_limited (Slack stopped sending a workspace's events for a minute)", () => {
  it("is logged, counted in GET /admin/health, alerted once per workspace and minute — and still forwarded in relay mode", async () => {
    const team = newWorkspace();
    const health = async () =>
      ((await (await adminGet("/admin/health")).json()) as { app_rate_limited: { last_24h: number; latest: unknown } })
        .app_rate_limited;
    const before = (await health()).last_24h;
    const minute = 1_796_000_040;
    const notice = { token: "x", type: "app_rate_limited", team_id: team, minute_rate_limited: minute, api_app_id: "A1" };
    expect((await deliver(await signedEvent(notice, signedBy()))).status).toBe(200);
    const limitedAlerts = () => alerts().texts.filter((text) => text.includes("rate-limited the app"));
    await vi.waitFor(() => expect(limitedAlerts()).toHaveLength(1), { timeout: 5_000 });
    expect(limitedAlerts()[0]).toContain(`workspace ${team}`);
    expect(limitedAlerts()[0]).toContain(new Date(minute * 1000).toISOString().slice(0, 16));
    await vi.waitFor(async () => expect((await health()).last_24h).toBe(before + 1));
    expect((await health()).latest).toMatchObject({ workspace: team, minute });
    await vi.waitFor(() => expect(relayed().some((r) => r.text.includes('"app_rate_limited"'))).toBe(true));

    // Slack's retry of the same envelope: no second alert, no second count.
    expect((await deliver(await signedEvent(notice, signedBy({ retryNum: 1, retryReason: "http_timeout" })))).status).toBe(200);
    await new Promise((settle) => setTimeout(settle, 300));
    expect(limitedAlerts()).toHaveLength(1);
    expect((await health()).last_24h).toBe(before + 1);
  });
});

describe("alerts on failing deliveries (ALERT_WEBHOOK_URL)", () => {
  it("a failing relay backend: alerts at the 1st, 5th and 20th consecutive failed attempt, then one 'recovered'", async () => {
    const team = newWorkspace();
    backend().answerNext({ status: 503 }, 1_000);
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { envelope, delivery } = await mentionDelivery(team, { event: undefined });
      sent.push(JSON.stringify(envelope));
      expect((await deliver(delivery)).status).toBe(200);
      await vi.waitFor(() => expect(relayed().length).toBeGreaterThanOrEqual(i + 1));
    }
    await vi.waitFor(() => expect(warnings()).toHaveLength(3), { timeout: 5_000 });
    const [first, fifth, twentieth] = warnings();
    // Named by its origin only: a path or query may carry a credential.
    const label = `the relay backend at ${new URL(RELAY_BACKEND_URL).origin}`;
    expect(first).toBe(
      `:warning: ${label}: a failed attempt. Last error: relay: backend answered HTTP 503. Newest key: ${relayed()[0]!.headers.get("x-relay-delivery-id")}:relay.`,
    );
    expect(fifth).toMatch(new RegExp(`^:warning: ${label}: ([5-9]|1[0-9]) consecutive failed attempts\\.`));
    expect(twentieth).toMatch(/: 2\d consecutive failed attempts\. .* No further alerts until it recovers\.$/);
    expect(recoveries()).toEqual([]);

    // The backend is back: the next attempt succeeds, and that is said once.
    backend().recover();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(recoveries()).toHaveLength(1), { timeout: 5_000 });
    expect(recoveries()[0]).toMatch(
      new RegExp(`^:white_check_mark: ${label} recovered after \\d+ consecutive failed attempts\\.$`),
    );
    // Never a payload (the events' text, ids, the envelope) in any alert.
    for (const text of alerts().texts) for (const envelope of sent) expect(text).not.toContain(envelope);
    expect(alerts().texts.join("\n")).not.toMatch(/xoxb-|hello|"event"|\/slack\/events/);
    // More failures of the same backend later would open a new streak; no further alerts now.
    await new Promise((settle) => setTimeout(settle, 200));
    expect(warnings()).toHaveLength(3);
    expect(recoveries()).toHaveLength(1);
  });

  it("one streak per destination across shards: failures in two workspaces count together", async () => {
    const [first, second] = [newWorkspace(), newWorkspace()];
    backend().answerNext({ status: 503 }, 2);
    expect((await deliver((await mentionDelivery(first)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(warnings()).toHaveLength(1), { timeout: 5_000 });
    expect((await deliver((await mentionDelivery(second)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(2));
    // The second workspace's shard reports its failure to the same streak (2: no alert), and the
    // first one's retry succeeds: recovered after both.
    await vi.waitFor(() => expect(recoveries()).toHaveLength(1), { timeout: 10_000 });
    expect(recoveries()[0]).toMatch(/recovered after 2 consecutive failed attempts\.$/);
    expect(warnings()).toHaveLength(1);
  });

  it("each Web API method of each workspace is a destination of its own", async () => {
    const team = newWorkspace();
    slack().fail({ method: "chat.postMessage" }, { status: 500 }, 1);
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(warnings()).toHaveLength(1), { timeout: 5_000 });
    expect(warnings()[0]).toMatch(
      new RegExp(
        `^:warning: chat\\.postMessage in ${team}: a failed attempt\\. Last error: chat\\.postMessage: 500 http_500\\. `,
      ),
    );
    // Its retry succeeds (after the backoff): recovered.
    await vi.waitFor(() => expect(recoveries()).toHaveLength(1), { timeout: 10_000 });
    expect(recoveries()[0]).toBe(`:white_check_mark: chat.postMessage in ${team} recovered after 1 consecutive failed attempt.`);
  });

  it("parked effects: the first alerted at once, the rest of the minute in one alert with their count", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    backend().answerNext({ status: 410 }, 3);
    for (let i = 0; i < 3; i++) expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(async () => expect(await shardStub(team).listParked()).toHaveLength(3));
    // Alerts are delivered by the watch's alarm; the test's clock decides when it fires.
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    // A 410 is a failed attempt too: the backend's streak alert, and the first parked one.
    await vi.waitFor(async () => expect((await watchStub().stats()).outbox.pending).toBe(2));
    await runDurableObjectAlarm(watchStub());
    expect(warnings()).toHaveLength(1);
    expect(parkedAlerts()).toHaveLength(1);
    expect(parkedAlerts()[0]).toMatch(
      new RegExp(`^:parking: 1 effect was parked on shard ${team}/0 .*Last: relay: backend answered 410 \\(.+:relay\\)\\.`),
    );
    // The other two wait for the minute to be up, then come as one.
    clock.advance(60_000);
    await runDurableObjectAlarm(watchStub());
    expect(parkedAlerts()).toHaveLength(2);
    expect(parkedAlerts()[1]).toMatch(new RegExp(`^:parking: 2 effects were parked on shard ${team}/0 `));
    expect(parkedAlerts()[1]).toContain(`GET /admin/shards/${team}/0/parked; replay: POST /admin/shards/${team}/0/replay.`);
  });

  it("a broken alert receiver blocks nothing: the alert is retried, deliveries go on", async () => {
    const team = newWorkspace();
    backend().answerNext({ status: 410 });
    const receiver = alerts();
    const handle = receiver.handle.bind(receiver);
    let refused = 0;
    receiver.handle = async (request) => (refused++ === 0 ? new Response("down", { status: 503 }) : handle(request));
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(refused).toBe(1), { timeout: 5_000 });
    // Meanwhile the workspace's other deliveries are delivered as usual.
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(2));
    await vi.waitFor(async () => expect((await watchStub().stats()).counters.retried).toBeGreaterThan(0));
    // The retry (after the backoff) delivers it.
    await vi.waitFor(() => expect(parkedAlerts()).toHaveLength(1), { timeout: 10_000 });
  });

  it("an alert the receiver refuses for good (404) is parked in the watch, where an operator lists and replays it", async () => {
    const team = newWorkspace();
    backend().answerNext({ status: 410 });
    const receiver = alerts();
    const handle = receiver.handle.bind(receiver);
    let gone = true;
    receiver.handle = async (request) => (gone ? new Response("no_service", { status: 404 }) : handle(request));
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(async () => expect(await (await adminGet("/admin/watch/parked")).json()).toHaveLength(2), {
      timeout: 5_000,
    });
    const parked = (await (await adminGet("/admin/watch/parked")).json()) as Array<{ effect: string; last_error: string }>;
    expect(parked.map((row) => [row.effect, row.last_error])).toEqual([
      ["alert", "alert: HTTP 404 no_service from ALERT_WEBHOOK_URL"],
      ["alert", "alert: HTTP 404 no_service from ALERT_WEBHOOK_URL"],
    ]);
    gone = false;
    const replay = await exports.default.fetch(
      new Request("https://coordinator.test/admin/watch/replay", {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_BINDINGS.ADMIN_TOKEN}` },
      }),
    );
    expect(await replay.json()).toEqual({ replayed: 2 });
    await vi.waitFor(() => expect(warnings().length + parkedAlerts().length).toBe(2), { timeout: 5_000 });
  });
});

describe("alert text is escaped for Slack's mrkdwn", () => {
  it("a handler's error quoting a mention and a link reaches the webhook as text, not as @channel or a link", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const hostile = "<!channel> <https://evil.example|replay> & more";
    const fields = slashCommandFields("/fail", hostile, { team_id: team });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 2, 60_000);
    expect(await shardStub(team).listParked()).toHaveLength(1);
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    // The shard's report reaches the watch on its own; the watch's alarm (the test's clock) delivers the alert.
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(watchStub());
      expect(parkedAlerts()).toHaveLength(1);
    });
    const [text] = parkedAlerts();
    expect(text).toContain("threw Error: &lt;!channel&gt; &lt;https://evil.example|replay&gt; &amp; more");
    expect(text).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
  });

  it("escapes before the 200-character cut, and the cut never leaves half an entity", () => {
    const lastError = (error: string) =>
      streakAlert("x", 1, { error, key: "k" }, false).split("Last error: ")[1]!.split(". Newest")[0]!;
    // 300 characters escaped are 1,200: cut at 200 of them, i.e. 50 whole entities.
    expect(lastError("<".repeat(300))).toBe(`${"&lt;".repeat(50)}…`);
    // A cut inside `&amp;` steps back before it.
    expect(lastError(`${"a".repeat(198)}&b`)).toBe(`${"a".repeat(198)}…`);
    expect(lastError(`${"a".repeat(196)}&b`)).toBe(`${"a".repeat(196)}…`);
    expect(lastError(`${"a".repeat(195)}&b`)).toBe(`${"a".repeat(195)}&amp;…`);
    expect(streakAlert("chat.postMessage in <T1>", 1, { error: "e", key: "<k>" }, false)).toBe(
      ":warning: chat.postMessage in &lt;T1&gt;: a failed attempt. Last error: e. Newest key: &lt;k&gt;.",
    );
  });
});
