import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { outboxKeyOf } from "../../src/app/contract/outboxKey";
import type { ErrorArgs } from "../../src/app/listeners/errorHandler";
import type { Inbound } from "../../src/inbound/types";
import { newRow } from "../../src/recording/outboxRows";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { outboxOf, shardIn } from "../support/shardIn";
import { HANDLER_MAX_ATTEMPTS } from "../support/testBindings";

const mention = (team: string, text: string): Inbound => ({
  kind: "event",
  dedupeKey: `Ev-${text.replaceAll(" ", "-")}`,
  workspace: team,
  teamId: team,
  isEnterpriseInstall: false,
  type: "app_mention",
  payload: { team_id: team, event: { type: "app_mention", text, user: "U1", channel: "C1", ts: "1.1" } },
});

type Seen = Pick<ErrorArgs, "listener" | "body"> & {
  name: string;
  originalName?: string;
  message: string;
  teamId?: string;
  code: string;
  original: { name: string; message: string };
};
type Rows = Array<{ idempotency_key: string; status: string }>;

/**
 * Records `text`'s delivery in a shard as ingest would, then lets time pass and sweeps until
 * every attempt has settled, with the shard's real delivery loop serving `app`.
 */
async function deliverAndSettle(app: App, text: string): Promise<Rows> {
  const clock = controlClock();
  const team = newWorkspace();
  return runInDurableObject(shardStub(team), async (_, state) => {
    const { loop } = shardIn(state, { app });
    const inbound = mention(team, text);
    const plan = app.plan(inbound);
    if ("ignore" in plan) throw new Error(`not planned: ${plan.ignore}`);
    const rows = plan.effects.map((planned) => newRow(outboxKeyOf(inbound, planned), team, planned.effect));
    outboxOf(state).enqueue(rows, Date.now(), null);
    for (let i = 0; i < 2 * HANDLER_MAX_ATTEMPTS + 4; i++) {
      clock.advance(60_000);
      await loop.sweep(Date.now());
    }
    return state.storage.sql
      .exec("SELECT idempotency_key, status FROM outbox WHERE done_at IS NULL ORDER BY 1")
      .toArray() as Rows;
  });
}

/** An app with three listeners (fails once, always fails, misuses ack) and an app.error that remembers what it saw. */
function appWithErrorHandler(handlerThrows = false) {
  const seen: Seen[] = [];
  let attempts = 0;
  const app = new App()
    .event("app_mention", {
      name: "flaky",
      when: ({ event }) => event.text === "flaky",
      run: async () => {
        if (++attempts === 1) throw new Error("first attempt fails");
      },
    })
    .event("app_mention", {
      name: "broken",
      when: ({ event }) => event.text === "broken",
      run: async () => {
        throw new TypeError("always broken");
      },
    })
    .event("app_mention", {
      name: "misuse",
      when: ({ event }) => event.text === "misuse",
      // @ts-expect-error a body in run does not compile; JavaScript code gets the run-time refusal.
      run: async ({ ack }) => ack({ text: "too late" }),
    })
    .error(async ({ error, listener, body, context }) => {
      seen.push({
        listener,
        body,
        name: error.name,
        originalName: error.originalName,
        message: error.message,
        teamId: context.teamId,
        code: error.code,
        original: { name: error.original.name, message: error.original.message },
      });
      if (handlerThrows) throw new Error("the error handler is broken too");
    });
  return { app, seen };
}

describe("app.error", () => {
  it("is not called for a run that fails once and then succeeds", async () => {
    const { app, seen } = appWithErrorHandler();
    expect(await deliverAndSettle(app, "flaky")).toEqual([]);
    expect(seen).toEqual([]);
  });

  it("is called once, after the last attempt, for a run that always fails: listener, body, reason, context", async () => {
    const { app, seen } = appWithErrorHandler();
    const rows = await deliverAndSettle(app, "broken");
    expect(rows).toEqual([{ idempotency_key: "Ev-broken:run:broken", status: "parked" }]);
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call).toMatchObject({
      listener: "broken",
      name: "ParkedError",
      originalName: "TypeError",
      teamId: expect.any(String),
      code: "slack_coordinator_handler_error",
      original: { name: "TypeError", message: "always broken" },
    });
    expect(call!.body).toMatchObject({ event: { type: "app_mention", text: "broken" } });
    expect(call!.message).toMatch(/^attempts exhausted; last: handler "broken" threw TypeError: always broken/);
  });

  it("is called once for a misuse, parked at its first attempt", async () => {
    const { app, seen } = appWithErrorHandler();
    await deliverAndSettle(app, "misuse");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      listener: "misuse",
      originalName: "HandlerMisuse",
      code: "slack_coordinator_handler_misuse",
    });
    expect(seen[0]!.message).toContain('handler "misuse": ack(body) in run comes too late');
    expect(seen[0]!.original).toMatchObject({
      name: "HandlerMisuse",
      message: expect.stringMatching(/^ack\(body\) in run comes too late/),
    });
  });

  it("that throws is retried and parked like a run, and never calls itself again", async () => {
    const { app, seen } = appWithErrorHandler(true);
    const rows = await deliverAndSettle(app, "broken");
    expect(rows).toEqual([
      { idempotency_key: "Ev-broken:run:broken", status: "parked" },
      { idempotency_key: "Ev-broken:run:broken:parked:app.error", status: "parked" },
    ]);
    expect(seen.map((call) => call.listener)).toEqual(Array(HANDLER_MAX_ATTEMPTS).fill("broken"));
  });

  it("is given the error itself, as Bolt's handler is: message, code, original, and the run's arguments on it", async () => {
    const seen: Record<string, unknown>[] = [];
    const app = new App()
      .event("app_mention", async () => {
        throw new RangeError("out of range");
      })
      .error(async (error) => {
        const { message, code, original, listener, event, say, env } = error;
        const runArgs = { event: (event as { text?: string }).text, say: typeof say, env: typeof env };
        seen.push({
          isError: error instanceof Error,
          message,
          code,
          original: `${original.name}: ${original.message}`,
          listener,
        });
        // The run's arguments are on it, but not what logs or JSON of the error show: never the env's secrets.
        seen.push({ ...runArgs, keys: Object.keys(error).sort(), json: Object.keys(JSON.parse(JSON.stringify(error))).sort() });
      });
    await deliverAndSettle(app, "range");
    expect(seen).toEqual([
      {
        isError: true,
        message: expect.stringMatching(
          /^attempts exhausted; last: handler "event:app_mention" threw RangeError: out of range \(at /,
        ),
        code: "slack_coordinator_handler_error",
        original: "RangeError: out of range",
        listener: "event:app_mention",
      },
      {
        event: "range",
        say: "function",
        env: "object",
        keys: ["code", "listener", "name", "original", "originalName", "reason"],
        json: ["code", "listener", "name", "original", "originalName", "reason"],
      },
    ]);
  });
});
