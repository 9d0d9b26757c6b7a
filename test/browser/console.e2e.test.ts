import { copyFileSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlackServer } from "../../bench/fakeSlack/fakeSlackServer";
import { repoRoot } from "../../bench/runtime/repoRoot";
import type { Runtime } from "../../bench/runtime/startRuntime";
import { appMention, eventCallback, signedEvent, toRequest } from "../../src/testing/deliveries";
import { consolePage, problemsOf, shows, signIn, until, whatThePageSaw } from "./browserPages";
import { type ConsoleUnderTest, launchBrowser, startConsoleUnderTest } from "./consoleUnderTest";

/**
 * The operations console in a real browser (headless Chromium from @sparticuz/chromium, driven by
 * playwright-core; nothing downloaded at run time) against the coordinator running locally in
 * workerd with the example app and a fake Slack on 127.0.0.1, seeded with signed traffic.
 */

const SECRET = "console-test-signing-secret";
const ADMIN_TOKEN = "console-test-admin-token";
/** Written on every run; copied to docs/console.png (the picture in docs/guides/operations.md) with UPDATE_SCREENSHOT=1. */
const SCREENSHOT = resolve(repoRoot, "test/browser/.output/console.png");
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

let fake: FakeSlackServer;
let coordinator: Runtime;
let browser: Browser;

async function send(team: string, channel = "C0CONSOLE"): Promise<void> {
  const delivery = await signedEvent(eventCallback(appMention({ channel }), { teamId: team }), { secret: SECRET });
  const response = await fetch(toRequest(new URL("/slack/events", coordinator.url).href, delivery));
  expect(response.status).toBe(200);
}

let under: ConsoleUnderTest;

beforeAll(async () => {
  under = await startConsoleUnderTest((fake) => ({
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_BOT_TOKEN: "xoxb-console-test",
    SLACK_API_URL: fake.fake.apiUrl,
    ADMIN_TOKEN,
    // The traffic it counts was written on the assistant view (the Worker's default then).
    AGENT_SESSIONS: "false",
  }));
  ({ fake, coordinator, browser } = under);
}, 120_000);

afterAll(() => under?.stop());

describe("the operations console in a browser", () => {
  it("refuses a wrong token, shows the traffic it was sent, and replays a parked effect with its button", async () => {
    // Seed: 5 mentions in one workspace, 3 in another, and one whose reply Slack refuses with a
    // hostile error text (parked at once).
    for (let i = 0; i < 5; i++) await send("TCONSOLEA");
    for (let i = 0; i < 3; i++) await send("TCONSOLEB");
    fake.fake.fail({ method: "chat.postMessage", channel: "C0PARKED" }, { error: HOSTILE }, 1);
    await send("TCONSOLEC", "C0PARKED");
    // Paced as Slack paces them (chat.update is Tier 3, per workspace): ~5 s here when idle; a
    // loaded CI machine took more than 15.
    await until(() => fake.calls.filter((call) => call.method === "chat.update").length >= 8, "the replies", 60_000);

    const { page, dialogs, problems } = await consolePage(browser);
    const external: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(coordinator.url.origin)) external.push(request.url());
    });
    try {
      await page.goto(new URL("/admin", coordinator.url).href);

      // A wrong token is refused, and the sign-in stays.
      await page.fill("#token", "not-the-token");
      await page.click("#sign-in-form button");
      // (Page-side checks are strings: they run in the browser, whose DOM this file is not typed with.)
      await shows(page, `document.getElementById("sign-in-error")?.textContent?.includes("refused")`);
      expect(await page.isVisible("#console")).toBe(false);

      // The right one shows the fleet: 9 accepted, three workspaces' shards, one parked effect.
      await page.fill("#token", ADMIN_TOKEN);
      await page.click("#sign-in-form button");
      await page.waitForSelector("#console:not([hidden])");
      await shows(page, `document.querySelector('[data-card="Accepted"] .value')?.textContent === "9"`);
      // Turn budgets' refusals have their card (none here: the example app sets no limits).
      expect(await page.$eval('[data-card="Turns refused"] .value', (v) => v.textContent)).toBe("0");
      const shards = await page.$$eval("#shards tbody tr", (rows) => rows.map((row) => row.getAttribute("data-shard")));
      expect(shards.sort()).toEqual(["TCONSOLEA/0", "TCONSOLEB/0", "TCONSOLEC/0"]);
      const accepted = await page.$eval('#shards tbody tr[data-shard="TCONSOLEA/0"] td:nth-child(2)', (td) => td.textContent);
      expect(accepted).toBe("5");
      // Its SQLite size (databaseSize), in decimal units.
      const storage = await page.$eval('#shards tbody tr[data-shard="TCONSOLEA/0"] td:nth-child(10)', (td) => td.textContent);
      expect(storage).toMatch(/^\d[\d.,]* (kB|MB)$/);
      await page.waitForSelector("#parked tbody tr[data-key]");
      const parkedRows = await page.$$("#parked tbody tr[data-key]");
      expect(parkedRows).toHaveLength(1);

      // The hostile error text is shown as text: no element made of it, nothing ran.
      const errorText = await page.$eval("#parked tbody tr[data-key] td.wrap", (td) => td.textContent);
      expect(errorText).toContain(HOSTILE);
      expect(await page.$$("#parked img")).toHaveLength(0);
      // The failing destinations quote the same error: text there too.
      expect(await page.$eval("#failing", (list) => list.textContent)).toContain(HOSTILE);
      expect(await page.$$("#failing img")).toHaveLength(0);
      expect(await page.evaluate("window.__pwned")).toBeUndefined();
      await page.waitForSelector("#chart-throughput canvas", { timeout: 5_000 }).catch(() => {
        throw new Error(`no chart; page problems: ${JSON.stringify(problems)}`);
      });

      mkdirSync(resolve(SCREENSHOT, ".."), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      if (process.env.UPDATE_SCREENSHOT === "1") copyFileSync(SCREENSHOT, resolve(repoRoot, "docs/console.png"));
      // And as a phone shows it (looked at, not asserted).
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: SCREENSHOT.replace(".png", "-phone.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 1100 });

      // Replay with the row's button: the fake Web API now gets the parked reply.
      await page.click("#parked tbody tr[data-key] button:has-text('Replay')");
      await until(
        () =>
          fake.calls.some((call) => call.method === "chat.postMessage" && call.channel === "C0PARKED" && call.outcome === "ok"),
        "the replayed reply",
      );
      await shows(page, `document.querySelector("#parked tbody")?.textContent?.includes("Nothing is parked.")`);
      expect(dialogs).toEqual([]);
      // The only errors the browser saw: the wrong token's 401s, and 404 for installations
      // (single-workspace mode has none; the panel stays hidden).
      expect(problems.filter((problem) => !/status of (401|404)/.test(problem))).toEqual([]);
      expect(external).toEqual([]);
    } catch (error) {
      throw await whatThePageSaw(page, problems, SCREENSHOT, error);
    }
    await page.close();
  }, 120_000);

  it("counts the parked effects a filter matches, then replays those alone after a confirm naming the count", async () => {
    fake.fake.fail({ method: "chat.postMessage", channel: "C0GONE" }, { error: "channel_not_found" }, 2);
    fake.fake.fail({ method: "chat.postMessage", channel: "C0SHUT" }, { error: "is_archived" }, 1);
    await send("TFILTERA", "C0GONE");
    await send("TFILTERA", "C0SHUT");
    await send("TFILTERB", "C0GONE");
    // A browser of its own: the single-process Chromium ends when the first test closes its last page.
    const own = await launchBrowser();
    const { page, dialogs, problems } = await consolePage(own);
    await signIn(page, new URL("/admin", coordinator.url), ADMIN_TOKEN);
    await shows(page, `document.querySelectorAll("#parked tbody tr[data-key]").length === 3`);

    await page.fill('#parked-filter input[name="workspace"]', "TFILTERA");
    await page.fill('#parked-filter input[name="error"]', "channel_not_found");
    await page.click("#parked-filter button[type=submit]");
    await shows(page, `document.getElementById("parked-count").textContent.startsWith("1 parked effect matching")`);
    await page.screenshot({ path: SCREENSHOT.replace(".png", "-filter.png"), fullPage: true });
    expect(dialogs).toEqual([]);

    await page.click("#replay-matching");
    await until(
      () => fake.calls.some((call) => call.method === "chat.postMessage" && call.channel === "C0GONE" && call.outcome === "ok"),
      "the replayed reply",
    );
    expect(dialogs).toEqual(["Replay 1 parked effect matching workspace TFILTERA, error channel_not_found?"]);
    await shows(page, `document.querySelectorAll("#parked tbody tr[data-key]").length === 2`);
    const left = await page.$$eval("#parked tbody tr[data-key] td:nth-child(2)", (cells) =>
      cells.map((cell) => cell.textContent).sort(),
    );
    expect(left).toEqual(["TFILTERA/0", "TFILTERB/0"]);
    expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    await own.close();
  }, 120_000);

  it("draws its charts under a browser locale that Intl rejects (Chromium started with LANG=C.UTF-8)", async () => {
    await send("TCONSOLED");
    // C.UTF-8 makes Chromium report navigator.language "en-US@posix", which Intl refuses.
    const posix = await launchBrowser({ ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8", LANGUAGE: "" });
    try {
      const page = await posix.newPage({ viewport: { width: 1280, height: 1100 } });
      const problems = problemsOf(page);
      await page.goto(new URL("/admin", coordinator.url).href);
      expect(await page.evaluate("navigator.languages")).toEqual(["en-US@posix"]);
      await page.fill("#token", ADMIN_TOKEN);
      await page.click("#sign-in-form button");
      await page.waitForSelector("#console:not([hidden])", { timeout: 10_000 });
      await shows(page, `/^\\d/.test(document.querySelector('[data-card="Accepted"] .value')?.textContent)`, 10_000);
      await shows(page, `document.querySelectorAll("#chart-throughput canvas, #chart-latency canvas").length === 2`, 5_000).catch(
        () => {
          throw new Error(`no charts; page problems: ${JSON.stringify(problems)}`);
        },
      );
      expect(await page.textContent("#status")).toMatch(/^Updated \S/);
      await page.screenshot({ path: SCREENSHOT.replace(".png", "-posix-locale.png"), fullPage: true });
      expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    } finally {
      await posix.close();
    }
  }, 60_000);
});
