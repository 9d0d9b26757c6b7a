import type { Browser, Page } from "playwright-core";

/**
 * What the browser tests share: a console page of a desktop's size, the problems it reports, and
 * waits that poll from Node (the console's CSP refuses the eval behind Playwright's own).
 */

/** Errors the page threw or logged, collected as they happen. */
export function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  return problems;
}

/** A page of a desktop's size, its dialogs accepted and recorded, and the problems it reports. */
export async function consolePage(on: Browser) {
  const page = await on.newPage({ viewport: { width: 1280, height: 1100 }, locale: "en-US" });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  return { page, dialogs, problems: problemsOf(page) };
}

export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((later) => setTimeout(later, 100));
  }
}

/**
 * Waits until `check` (page-side, a string: this file is not typed with the DOM) holds, polled from
 * here: waitForFunction polls a string predicate by an eval in the page, which the console's CSP
 * (no 'unsafe-eval') refuses whenever the first check does not already hold.
 */
export const shows = (page: Page, check: string, timeoutMs?: number) =>
  until(async () => (await page.evaluate(check)) === true, check, timeoutMs);

/** A failing test's error, with what the page saw and a screenshot of it (for a failure that does not reproduce). */
export async function whatThePageSaw(page: Page, problems: string[], screenshot: string, error: unknown): Promise<Error> {
  await page.screenshot({ path: screenshot.replace(".png", "-failure.png"), fullPage: true }).catch(() => {});
  return new Error(`${error instanceof Error ? error.message : String(error)}; page problems: ${JSON.stringify(problems)}`, {
    cause: error,
  });
}

/** Opens `address` (the console, or one of its pages) and signs in with `token`. */
export async function signIn(page: Page, address: URL, token: string): Promise<void> {
  await page.goto(address.href);
  await page.fill("#token", token);
  await page.click("#sign-in-form button");
}
