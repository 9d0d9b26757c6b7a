import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COMPLETION_WAIT_MS, Completions } from "../../src/delivery/completions";
import { newWorkspace, shardStub } from "../support/coordinator";
import { postMessage, seedEffects } from "../support/outboxRows";
import { outboxOf } from "../support/shardIn";

const LEASE_MS = 60_000;

describe("completions", () => {
  it("wait for the shard's next write, are fenced there, and delete only what their token still holds", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const keys = await seedEffects(stub, team, [
      { name: "a", effect: postMessage("C1") },
      { name: "b", effect: postMessage("C2") },
    ]);
    const outcome = await runInDurableObject(stub, async (_, state) => {
      const outbox = outboxOf(state);
      outbox.claimBatch("mine", Date.now(), LEASE_MS, 10);
      const completions = new Completions(outbox, 60_000);
      const done = [completions.complete(keys[0]!, "mine"), completions.complete(keys[1]!, "not-mine")];
      const before = outbox.countsByStatus().pending;
      completions.flush();
      return { before, settled: await Promise.all(done), after: outbox.countsByStatus().pending };
    });
    // Nothing was deleted before the flush; then the row the token holds was, and only it.
    expect(outcome).toEqual({ before: 2, settled: [true, false], after: 1 });
  });

  it("with no other write, are written after COMPLETION_WAIT_MS at most", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const [key] = await seedEffects(stub, team, [{ name: "a", effect: postMessage("C1") }]);
    const outcome = await runInDurableObject(stub, async (_, state) => {
      const outbox = outboxOf(state);
      outbox.claimBatch("mine", Date.now(), LEASE_MS, 10);
      const completed = await new Completions(outbox).complete(key!, "mine");
      return { completed, pending: outbox.countsByStatus().pending };
    });
    expect(COMPLETION_WAIT_MS).toBeLessThanOrEqual(50);
    expect(outcome).toEqual({ completed: true, pending: 0 });
  });

  it("of a row someone waits on (a relayed command's answer) are written at once", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const [awaited, other] = await seedEffects(stub, team, [
      { name: "relay", effect: postMessage("C1") },
      { name: "plain", effect: postMessage("C2") },
    ]);
    const outcome = await runInDurableObject(stub, async (_, state) => {
      const outbox = outboxOf(state);
      outbox.claimBatch("mine", Date.now(), LEASE_MS, 10);
      const completions = new Completions(outbox, 60_000, (key) => key === awaited);
      void completions.complete(other!, "mine");
      const completed = await completions.complete(awaited!, "mine");
      return { completed, pending: outbox.countsByStatus().pending };
    });
    // The awaited completion did not wait a minute for its timer; the one before it went along.
    expect(outcome).toEqual({ completed: true, pending: 0 });
  });
});
