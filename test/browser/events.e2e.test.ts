import { copyFileSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlackServer } from "../../bench/fakeSlack/fakeSlackServer";
import { repoRoot } from "../../bench/runtime/repoRoot";
import type { Runtime } from "../../bench/runtime/startRuntime";
import { appMention, eventCallback, signedEvent, signedForm, slashCommandFields, toRequest } from "../../src/testing/deliveries";
import { consolePage, shows, signIn, until, whatThePageSaw } from "./browserPages";
import { type ConsoleUnderTest, startConsoleUnderTest } from "./consoleUnderTest";

/**
 * The console's event search and event page (docs/guides/operations.md "Operations console") in
 * headless Chromium, against the coordinator in workerd with the example app and a fake Slack on
 * 127.0.0.1: a delivery found by its id, its channel and its user, its story as a timeline, and
 * a parked row's link to it.
 */

const SECRET = "events-test-signing-secret";
const ADMIN_TOKEN = "events-test-admin-token";
const WORKSPACE = "TEVENTS";
const CHANNEL = "C0STORY";
const USER = "U0STORY";
const TRIGGER_ID = "13345224609.98765.story";
/** Written on every run; copied to docs/console-event.png (the picture in the guide) with UPDATE_SCREENSHOT=1. */
const SCREENSHOT = resolve(repoRoot, "test/browser/.output/console-event.png");
/** A message text and an error text as hostile as Slack can carry them: shown as text, never run. */
const HOSTILE_TEXT = "<script>window.__pwned = 'text'</script><img src=x onerror=window.__pwned=1> help";
const HOSTILE_ERROR = '<img src=x onerror="window.__pwned=2">';

let fake: FakeSlackServer;
let coordinator: Runtime;
let browser: Browser;

/** Sends a mention in #C0STORY as Slack's first retry of it would come. */
async function mention(text: string): Promise<void> {
  const envelope = eventCallback(appMention({ channel: CHANNEL, user: USER, text }), { teamId: WORKSPACE });
  const delivery = await signedEvent(envelope, { secret: SECRET, retryNum: 1, retryReason: "http_timeout" });
  const response = await fetch(toRequest(new URL("/slack/events", coordinator.url).href, delivery));
  expect(response.status).toBe(200);
}

/** Sends `/echo text` in #C0STORY. */
async function command(text: string): Promise<void> {
  const fields = slashCommandFields("/echo", text, {
    team_id: WORKSPACE,
    channel_id: CHANNEL,
    user_id: USER,
    trigger_id: TRIGGER_ID,
    response_url: fake.fake.responseUrl("story"),
  });
  const response = await fetch(
    toRequest(new URL("/slack/commands", coordinator.url).href, await signedForm(fields, { secret: SECRET })),
  );
  expect(response.status).toBe(200);
}

/** Waits until an effect whose key starts with `prefix` is parked. */
const parked = (prefix: string) =>
  until(async () => (await admin("/admin/api/parked")).parked.some((row) => row.key.startsWith(prefix)), `${prefix}… parked`);

const admin = async (path: string) =>
  (await fetch(new URL(path, coordinator.url), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json() as Promise<{
    parked: { key: string }[];
  }>;

/** Types into the search box and finds. */
async function search(page: Page, text: string): Promise<void> {
  await page.fill('#event-search input[name="q"]', text);
  await page.click("#event-search button[type=submit]");
}

/** The timeline's top-level steps, its attempts' outcomes and its calls' method and answer. */
const steps = (page: Page) => page.$$eval("#event-timeline > li", (items) => items.map((item) => item.className));
const attemptOutcomes = (page: Page) =>
  page.$$eval("#event-timeline .step-attempt > .step-title > .badge", (b) => b.map((x) => x.textContent));
const calls = (page: Page) =>
  page.$$eval("#event-timeline table.calls tbody tr", (rows) =>
    rows.map((row) => [...row.querySelectorAll("td")].slice(0, 2).map((td) => td.textContent ?? "")),
  );

const eventRows = (page: Page) =>
  page.$$eval("#event-list tbody tr[data-event]", (rows) => rows.map((row) => row.getAttribute("data-event")));

let under: ConsoleUnderTest;

beforeAll(async () => {
  under = await startConsoleUnderTest((fake) => ({
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_BOT_TOKEN: "xoxb-events-test",
    SLACK_API_URL: fake.fake.apiUrl,
    ADMIN_TOKEN,
    RESPONSE_URL_ORIGINS: fake.origin,
  }));
  ({ fake, coordinator, browser } = under);
}, 120_000);

afterAll(() => under?.stop());

describe("the console's event search and event page", () => {
  it("finds a delivery by id, channel and user, shows its story as a timeline, and opens it from its parked row", async () => {
    // A command whose answer Slack refuses (parked at its first attempt: found by its trigger_id),
    // a mention whose reply Slack refuses with a hostile error (the demo keys a mention by its
    // message: found by its channel, its user and its parked row), then a mention delivered.
    fake.fake.fail({ method: "response_url" }, { status: 404, error: "expired_url" }, 1);
    await command(HOSTILE_TEXT);
    await parked(TRIGGER_ID);
    fake.fake.fail({ method: "chat.postMessage", channel: CHANNEL }, { error: HOSTILE_ERROR }, 1);
    await mention(HOSTILE_TEXT);
    await parked(`${WORKSPACE}:${CHANNEL}:`);
    await mention("<@U0000BOT> hello");
    await until(
      () => fake.calls.some((call) => call.method === "chat.update" && call.channel === CHANNEL),
      "the delivered reply",
      60_000,
    );

    const { page, dialogs, problems } = await consolePage(browser);
    try {
      await signIn(page, new URL("/admin", coordinator.url), ADMIN_TOKEN);
      await page.waitForSelector("#console:not([hidden])");

      // By its id (a trigger_id): the event page, its timeline from receipt to park.
      await search(page, TRIGGER_ID);
      await shows(page, `document.querySelector("#event-timeline .step-effect") !== null`);
      expect(page.url()).toMatch(new RegExp(`#/events/${TRIGGER_ID}$`));
      expect(await page.isVisible("#dashboard")).toBe(false);
      expect(await page.textContent("#event-title")).toBe(`Event ${TRIGGER_ID}`);
      expect(await page.textContent("#event-status")).toBe("parked");
      expect(await steps(page)).toEqual([
        "step step-received",
        "step step-recorded",
        "step step-effect",
        "step step-end end-parked",
      ]);
      expect(await page.textContent("#event-timeline .step-received")).toContain("Slack's first try");
      expect(await page.textContent("#event-timeline .step-recorded")).toContain(`Recorded on shard ${WORKSPACE}/0`);
      // Its one attempt, parked, with its one call and the answer it got.
      expect(await attemptOutcomes(page)).toEqual(["parked"]);
      expect(await calls(page)).toEqual([["response_url", expect.stringContaining("404")]]);
      expect(await page.textContent("#event-payload pre")).toContain(HOSTILE_TEXT);
      expect(await page.$$("#event-body script, #event-body img")).toHaveLength(0);

      // By channel: all three, newest first, each linking to its page; a page at a time (limit 1 here).
      await search(page, CHANNEL);
      await shows(page, `document.querySelectorAll("#event-list tbody tr[data-event]").length === 3`);
      const listed = await eventRows(page);
      expect(listed[0]).toMatch(/^fact:/);
      expect(listed[1]).toMatch(/^fact:/);
      expect(listed[2]).toBe(TRIGGER_ID);
      expect(await page.textContent(`#event-list tr[data-event="${listed[1]}"]`)).toContain(HOSTILE_ERROR);
      mkdirSync(resolve(SCREENSHOT, ".."), { recursive: true });
      await page.screenshot({ path: SCREENSHOT.replace(".png", "-list.png"), fullPage: true });
      await page.goto(new URL(`/admin#/events?channel=${CHANNEL}&limit=1`, coordinator.url).href);
      await shows(page, `document.querySelectorAll("#event-list tbody tr[data-event]").length === 1`);
      for (const more of [2, 3]) {
        await page.click("#event-list-more");
        await shows(page, `document.querySelectorAll("#event-list tbody tr[data-event]").length === ${more}`);
      }
      expect(await eventRows(page)).toEqual(listed);

      // The delivered one's page: done, its row kept with its attempt (its agent session's status calls beside its replies).
      await page.click(`#event-list tr[data-event="${listed[0]}"] a`);
      await shows(page, `document.getElementById("event-title").textContent === "Event ${listed[0]}"`);
      await shows(page, `document.querySelector("#event-timeline .step-effect") !== null`);
      const delivered = await page.textContent("#event-status");
      expect(delivered).toBe("done");
      const replies = (await calls(page)).map(([method]) => method).filter((method) => method?.startsWith("chat."));
      expect(replies).toEqual(["chat.postMessage", "chat.update"]);

      // By user (pasted as Slack writes a mention): all three again.
      await search(page, `<@${USER}>`);
      await shows(page, `document.querySelectorAll("#event-list tbody tr[data-event]").length === 3`);
      expect(page.url()).toMatch(new RegExp(`#/events\\?user=${USER}$`));

      // The parked list's row of the mention links to its event's page: Slack's retry, the attempt, its call.
      await page.click("a.home");
      const row = `#parked tbody tr[data-key^="${WORKSPACE}:${CHANNEL}:"] a`;
      await page.waitForSelector(row);
      await page.click(row);
      await shows(page, `document.getElementById("event-title").textContent === "Event ${listed[1]}"`);
      await shows(page, `document.querySelector("#event-timeline .step-effect.chosen") !== null`);
      expect(page.url()).toContain(`#/events/${encodeURIComponent(listed[1]!)}?workspace=${WORKSPACE}`);
      expect(await page.textContent("#event-status")).toBe("parked");
      expect(await page.textContent("#event-timeline .step-received")).toContain(
        "Slack's retry 1 (X-Slack-Retry-Reason: http_timeout)",
      );
      expect(await attemptOutcomes(page)).toEqual(["parked"]);
      expect((await calls(page)).at(-1)).toEqual(["chat.postMessage", expect.stringContaining(HOSTILE_ERROR)]);
      // Hostile texts are text: the payload (folded away) and Slack's error hold them, no element came of them.
      expect(await page.$eval("#event-payload", (details) => (details as { open?: boolean }).open)).toBe(false);
      expect(await page.textContent("#event-payload pre")).toContain(HOSTILE_TEXT);
      expect(await page.$$("#event-body script, #event-body img")).toHaveLength(0);
      await page.click("#event-payload summary");
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      if (process.env.UPDATE_SCREENSHOT === "1") copyFileSync(SCREENSHOT, resolve(repoRoot, "docs/console-event.png"));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: SCREENSHOT.replace(".png", "-phone.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 1100 });

      // Unknown (or pruned): said so, no story.
      await search(page, "EvNEVERSENT");
      await shows(page, `document.getElementById("event-message").textContent.includes("not found")`);
      expect(await page.textContent("#event-message")).toMatch(
        /^Event EvNEVERSENT: not found \(unknown, or pruned with its receipt window\)\. A message.s second event/,
      );
      expect(await page.$$("#event-timeline")).toHaveLength(0);

      // The ids a parked key can start with, likeliest first: its message's fact receipt, else each prefix at a colon.
      const idsOf = (key: string) =>
        page.evaluate(`import("/admin/assets/eventKeys.browser.js").then((keys) => keys.eventIdsOf(${JSON.stringify(key)}))`);
      expect(await idsOf("view_closed:V0123:run:view_closed")).toEqual([
        "view_closed",
        "view_closed:V0123",
        "view_closed:V0123:run",
      ]);
      expect(await idsOf("T01:C01:1765017720.000100:run:x")).toEqual([
        "fact:T01:C01:1765017720.000100:run:x",
        "T01",
        "T01:C01",
        "T01:C01:1765017720.000100",
        "T01:C01:1765017720.000100:run",
      ]);

      expect(await page.evaluate("window.__pwned")).toBeUndefined();
      expect(dialogs).toEqual([]);
      // The only errors the browser saw: 404s (the unknown event, installations in single-workspace mode).
      expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    } catch (error) {
      throw await whatThePageSaw(page, problems, SCREENSHOT, error);
    }

    // An event page's address, opened in a new tab (no token yet): the sign-in, then the page.
    // (Opened before the first closes: the single-process Chromium ends with its last page.)
    const { page: opened, problems: openedProblems } = await consolePage(browser);
    await signIn(opened, new URL(`/admin#/events/${TRIGGER_ID}`, coordinator.url), ADMIN_TOKEN);
    await shows(opened, `document.querySelector("#event-timeline .step-attempt") !== null`);
    expect(await opened.textContent("#event-title")).toBe(`Event ${TRIGGER_ID}`);
    expect(await opened.isVisible("#dashboard")).toBe(false);
    expect(openedProblems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    await opened.close();
    await page.close();
  }, 120_000);
});
