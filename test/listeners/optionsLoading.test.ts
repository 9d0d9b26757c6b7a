import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { createCoordinator } from "../../src/coordinator";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { SlackSimulator } from "../../src/testing/slackSimulator";
import { newWorkspace, storedFor } from "../support/coordinator";
import { TEST_SIGNING_SECRET } from "../support/secrets";

const option = (value: string) => ({ text: { type: "plain_text" as const, text: value }, value });
/** Where the app's customers are looked up: an API of its own, reached with fetch (mocked here). */
const CUSTOMERS = "https://customers.invalid/search";

/** What each load saw: its signal's state when it ended, and the user it came from. */
const seen: Array<{ action: string; aborted?: boolean; userId?: string; logged?: boolean }> = [];

const app = new App()
  // Bolt's shape: read an API, then ack what it found.
  .options("pick_customer", async ({ options, ack, signal, context }) => {
    const found = await fetch(`${CUSTOMERS}?q=${encodeURIComponent(options.value)}`, { signal });
    const names = (await found.json()) as string[];
    seen.push({ action: "pick_customer", userId: context.userId });
    await ack({ options: names.map(option) });
    await ack({ options: [option("second ack")] });
  })
  // Slower than the edge's budget: it waits until its signal says the answer is due.
  .options("pick_slow", async ({ ack, signal }) => {
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    seen.push({ action: "pick_slow", aborted: signal.aborted });
    await ack({ options: [option("too late")] });
  })
  .options("pick_broken", async () => {
    throw new Error("the customer database is down");
  })
  .options("pick_forgetful", async ({ logger }) => {
    logger.info("looked, found nothing, forgot to ack");
  })
  // The pure form still answers from the edge at once.
  .options("pick_env", {
    ack: ({ options }) => ({ options: ["production", "preview"].filter((e) => e.startsWith(options.value)).map(option) }),
  });

const { worker } = createCoordinator({ app });
const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

async function load(team: string, actionId: string, typed: string, settings: Record<string, string> = {}) {
  const request = await new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team }).blockSuggestion(actionId, typed);
  const started = Date.now();
  const response = await worker.fetch(request as never, { ...(env as unknown as CoordinatorEnv), ...settings }, context);
  return { status: response.status, body: await response.json(), ms: Date.now() - started };
}

const lines = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);

afterEach(() => {
  seen.length = 0;
  vi.restoreAllMocks();
});

describe("an app.options listener that reads before it acks", () => {
  it("answers at the edge with what it acked after its I/O (the first ack counts), and records nothing", async () => {
    const team = newWorkspace();
    const api = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const query = new URL(String(input instanceof Request ? input.url : input)).searchParams.get("q");
      return Response.json(["Acme", "Acorn", "Beta"].filter((name) => name.toLowerCase().startsWith(query ?? "")));
    });
    const warnings = vi.spyOn(console, "warn");
    const answer = await load(team, "pick_customer", "ac");
    expect(answer).toMatchObject({ status: 200, body: { options: [option("Acme"), option("Acorn")] } });
    expect(api).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([{ action: "pick_customer", userId: "U0000USER" }]);
    expect(lines(warnings).map((line) => line.msg)).toContain("ack() called again in an options load: the first answer stands");
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("slower than ACK_BUDGET_MS: Slack gets an empty list in time, the listener's signal aborts, a line says so", async () => {
    const team = newWorkspace();
    const warnings = vi.spyOn(console, "warn");
    const answer = await load(team, "pick_slow", "x", { ACK_BUDGET_MS: "300" });
    expect(answer).toMatchObject({ status: 200, body: { options: [] } });
    expect(answer.ms).toBeLessThan(3_000);
    await vi.waitFor(() => expect(seen).toEqual([{ action: "pick_slow", aborted: true }]));
    expect(lines(warnings)).toContainEqual(
      expect.objectContaining({
        msg: "options load not acked within ACK_BUDGET_MS: Slack got an empty list",
        action_id: "pick_slow",
      }),
    );
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("that throws, or returns without acking: an empty list and a line naming the select", async () => {
    const team = newWorkspace();
    const errors = vi.spyOn(console, "error");
    const warnings = vi.spyOn(console, "warn");
    expect(await load(team, "pick_broken", "a")).toMatchObject({ status: 200, body: { options: [] } });
    expect(lines(errors)).toContainEqual(
      expect.objectContaining({ msg: "options load failed: Slack got an empty list", action_id: "pick_broken" }),
    );
    expect(lines(errors).find((line) => line.action_id === "pick_broken")?.error).toContain("the customer database is down");
    expect(await load(team, "pick_forgetful", "a")).toMatchObject({ status: 200, body: { options: [] } });
    expect(lines(warnings)).toContainEqual(
      expect.objectContaining({
        msg: "options load returned without ack(): Slack got an empty list",
        action_id: "pick_forgetful",
      }),
    );
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("beside a pure ack, which still answers at once", async () => {
    expect(await load(newWorkspace(), "pick_env", "pr")).toMatchObject({
      status: 200,
      body: { options: [option("production"), option("preview")] },
    });
  });
});
