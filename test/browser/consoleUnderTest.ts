import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";
import { type FakeSlackServer, startFakeSlackServer } from "../../bench/fakeSlack/fakeSlackServer";
import { repoRoot } from "../../bench/runtime/repoRoot";
import { type Runtime, startRuntime } from "../../bench/runtime/startRuntime";

/**
 * The console under test: the coordinator as `npm start` serves it (bundled as the bench bundles
 * it) in workerd on 127.0.0.1, a fake Slack beside it, and headless Chromium from
 * @sparticuz/chromium driven by playwright-core (nothing downloaded at run time).
 */
export interface ConsoleUnderTest {
  fake: FakeSlackServer;
  coordinator: Runtime;
  browser: Browser;
  stop(): Promise<void>;
}

/** A browser of its own (the single-process Chromium ends when its last page closes); `env` for its locale. */
export const launchBrowser = async (env?: Record<string, string | undefined>) =>
  playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
    ...(env ? { env } : {}),
  });

/** Starts it all; `bindings` are the Worker's settings, given the fake Slack's address. */
export async function startConsoleUnderTest(
  bindings: (fake: FakeSlackServer) => Record<string, string>,
): Promise<ConsoleUnderTest> {
  execFileSync(process.execPath, [resolve(repoRoot, "scripts/build-bench.mjs")], { cwd: repoRoot, stdio: "inherit" });
  const fake = await startFakeSlackServer();
  const coordinator = await startRuntime({ worker: "coordinator", port: 0, bindings: bindings(fake) });
  const browser = await launchBrowser();
  return {
    fake,
    coordinator,
    browser,
    async stop() {
      await browser.close();
      await coordinator.stop();
      await fake.close();
    },
  };
}
