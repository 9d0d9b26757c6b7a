import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RunEffect, SlackApp } from "../../src/app/contract/slackApp";
import type { Inbound } from "../../src/inbound/types";
import { newRow } from "../../src/recording/outboxRows";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { outboxOf, shardIn } from "../support/shardIn";
import { HANDLER_MAX_ATTEMPTS } from "../support/testBindings";

const mention = (team: string): Inbound => ({
  kind: "event",
  dedupeKey: "Ev-parks",
  workspace: team,
  isEnterpriseInstall: false,
  type: "app_mention",
  payload: { event: { type: "app_mention", text: "hi", user: "U1", channel: "C1", ts: "1.1" } },
});

/**
 * An app whose listener "broken" always throws, and whose `parked` plans one follow-up run
 * "notice" per parking; `notice` says whether that follow-up succeeds.
 */
function parkingApp(notice: "succeeds" | "throws") {
  const noticed: string[] = [];
  const planned: string[] = [];
  const app: SlackApp = {
    plan: () => ({ effects: [] }),
    async run(effect) {
      if (effect.listener === "broken") throw new TypeError("always broken");
      if (notice === "throws") throw new Error("the notice is broken too");
      noticed.push(effect.listener);
    },
    parked(effect: RunEffect, reason: string) {
      planned.push(`${effect.listener}: ${reason}`);
      return [{ name: "parked:notice", effect: { type: "run", listener: "notice", inbound: effect.inbound } }];
    },
  };
  return { app, noticed, planned };
}

type Rows = Array<{ idempotency_key: string; status: string }>;

describe("a parked run's follow-ups", () => {
  it("are recorded once with the parking and delivered; a replay that parks again adds none", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { app, noticed, planned } = parkingApp("succeeds");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const { loop } = shardIn(state, { app });
      const outbox = outboxOf(state);
      const inbound = mention(team);
      outbox.enqueue([newRow("Ev-parks:run:broken", team, { type: "run", listener: "broken", inbound })], Date.now(), null);
      const rows = () =>
        state.storage.sql.exec("SELECT idempotency_key, status FROM outbox WHERE done_at IS NULL ORDER BY 1").toArray() as Rows;
      const sweepRounds = async (n: number) => {
        for (let i = 0; i < n; i++) {
          clock.advance(60_000);
          await loop.sweep(Date.now());
        }
      };
      await sweepRounds(HANDLER_MAX_ATTEMPTS + 2);
      const afterFirstPark = { rows: rows(), noticed: [...noticed] };
      expect(outbox.parked.replay(Date.now(), null)).toBe(1);
      await sweepRounds(HANDLER_MAX_ATTEMPTS + 2);
      return { afterFirstPark, afterSecondPark: { rows: rows(), noticed: [...noticed] } };
    });
    const parked = [{ idempotency_key: "Ev-parks:run:broken", status: "parked" }];
    expect(outcome).toEqual({
      afterFirstPark: { rows: parked, noticed: ["notice"] },
      afterSecondPark: { rows: parked, noticed: ["notice"] },
    });
    expect(planned).toHaveLength(1);
    expect(planned[0]).toMatch(/^broken: attempts exhausted; last: handler "broken" threw TypeError: always broken/);
  });

  it("a follow-up that is parked itself has no follow-ups of its own", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { app, planned } = parkingApp("throws");
    const rows = await runInDurableObject(shardStub(team), async (_, state) => {
      const { loop } = shardIn(state, { app });
      const inbound = mention(team);
      outboxOf(state).enqueue(
        [newRow("Ev-parks:run:broken", team, { type: "run", listener: "broken", inbound })],
        Date.now(),
        null,
      );
      for (let i = 0; i < 2 * HANDLER_MAX_ATTEMPTS + 4; i++) {
        clock.advance(60_000);
        await loop.sweep(Date.now());
      }
      return state.storage.sql
        .exec("SELECT idempotency_key, status FROM outbox WHERE done_at IS NULL ORDER BY 1")
        .toArray() as Rows;
    });
    expect(rows).toEqual([
      { idempotency_key: "Ev-parks:run:broken", status: "parked" },
      { idempotency_key: "Ev-parks:run:broken:parked:notice", status: "parked" },
    ]);
    expect(planned).toHaveLength(1);
  });
});
