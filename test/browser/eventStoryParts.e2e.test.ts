import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../bench/runtime/repoRoot";
import { appMention, eventCallback, messageTs, signedEvent, toRequest } from "../../src/testing/deliveries";
import { consolePage, shows, signIn, until, whatThePageSaw } from "./browserPages";
import { type ConsoleUnderTest, launchBrowser, startConsoleUnderTest } from "./consoleUnderTest";

/**
 * The parts of an event's page beyond its attempts: what its run waits for (the demo's "count to
 * 1000" asks first, `waitForAction`) and the messages it posted, read from the run's waits and
 * checkpoints; and a re-run's links both ways (POST /admin/api/events/{id}/rerun).
 */

const SECRET = "event-wait-test-signing-secret";
const ADMIN_TOKEN = "event-wait-test-admin-token";
const WORKSPACE = "TWAITING";
const CHANNEL = "C0WAITING";
const USER = "U0WAITING";
const SCREENSHOT = resolve(repoRoot, "test/browser/.output/console-event-waiting.png");

let under: ConsoleUnderTest;

beforeAll(async () => {
  under = await startConsoleUnderTest((fake) => ({
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_BOT_TOKEN: "xoxb-event-wait-test",
    SLACK_API_URL: fake.fake.apiUrl,
    ADMIN_TOKEN,
  }));
}, 120_000);

afterAll(() => under?.stop());

type Story = { id: string; effects: { waiting?: { ts?: string } | null }[] };

const admin = async <T>(path: string): Promise<T> =>
  (
    await fetch(new URL(path, under.coordinator.url), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json() as Promise<T>;

let id = "";

describe("an event's page: waits, messages and re-runs", () => {
  it("shows what the run waits for — its question, deadline and who may answer — and the question among its messages", async () => {
    const event = appMention({ channel: CHANNEL, user: USER, text: "<@U0000BOT> count to 1000", threadTs: messageTs() });
    const delivery = await signedEvent(eventCallback(event, { teamId: WORKSPACE }), { secret: SECRET });
    expect((await fetch(toRequest(new URL("/slack/events", under.coordinator.url).href, delivery))).status).toBe(200);
    // The demo keys a mention by its message: its story's id is the list's `fact:` one.
    let question: string | undefined;
    await until(async () => {
      const [listed] = (await admin<{ events: Story[] }>(`/admin/api/events?workspace=${WORKSPACE}`)).events;
      id = listed?.id ?? "";
      question = id ? (await admin<Story>(`/admin/api/events/${encodeURIComponent(id)}`)).effects[0]?.waiting?.ts : undefined;
      return question !== undefined;
    }, "the run's wait");
    // The question the fake Web API answered: the one the page is to name.
    expect(under.fake.calls.some((call) => call.method === "chat.postMessage" && call.answerTs === question)).toBe(true);

    const { page, problems } = await consolePage(under.browser);
    try {
      await signIn(page, new URL("/admin", under.coordinator.url), ADMIN_TOKEN);
      await page.waitForSelector("#console:not([hidden])");
      await page.fill('#event-search input[name="q"]', CHANNEL);
      await page.click("#event-search button[type=submit]");
      await page.click(`#event-list tr[data-event="${id}"] a`);
      await shows(page, `document.querySelector("#event-timeline .step-waiting") !== null`);
      expect(await page.textContent("#event-status")).toBe("pending");
      const waiting = await page.textContent("#event-timeline .step-waiting");
      expect(waiting).toContain('Waits for a click on its question "count_confirm" until');
      expect(waiting).toContain(`In ${CHANNEL}, message ${question}, answered by ${USER}`);
      expect(await page.textContent("#event-timeline .step-messages")).toContain(
        `question "count_confirm" · in ${CHANNEL} · ts ${question}`,
      );
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    } catch (error) {
      throw await whatThePageSaw(page, problems, SCREENSHOT, error);
    }
    await page.close();
  }, 120_000);

  it("links a re-run to what it re-ran, and back", async () => {
    const rerun = await fetch(new URL(`/admin/api/events/${encodeURIComponent(id)}/rerun`, under.coordinator.url), {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "idempotency-key": "console-1" },
    });
    expect(rerun.status).toBe(202);
    const rerunId = ((await rerun.json()) as { id: string }).id;
    // A browser of its own: the single-process Chromium ended when the first test closed its last page.
    const own = await launchBrowser();
    const { page, problems } = await consolePage(own);
    try {
      await signIn(page, new URL(`/admin#/events/${encodeURIComponent(id)}`, under.coordinator.url), ADMIN_TOKEN);
      await shows(page, `document.querySelector("#event-ids a[href*='rerun']") !== null`);
      await page.click("#event-ids a[href*='rerun']");
      await shows(page, `document.getElementById("event-title").textContent === ${JSON.stringify(`Event ${rerunId}`)}`);
      await shows(page, `document.querySelector("#event-timeline") !== null`);
      const facts = await page.$$eval("#event-ids .fact", (rows) => rows.map((row) => row.textContent));
      expect(facts).toContain(`Re-run of${id}`);
      expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    } catch (error) {
      throw await whatThePageSaw(page, problems, SCREENSHOT.replace(".png", "-rerun.png"), error);
    } finally {
      await own.close();
    }
  }, 120_000);
});
