import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WorkspaceShard } from "../../src/shard/workspaceShard";
import { eventCallback, messageTs, signedEvent, slackId } from "../../src/testing/deliveries";
import { deliver, shardStub, signedBy } from "../support/coordinator";
import { latch } from "../support/latch";
import { install, newTeam } from "../support/oauth";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/**
 * Resolves once the team's shard has delivered a row whose key `matches` (its delivery events,
 * subscribed before anything is sent): what the test waits for, instead of polling.
 */
async function deliveredIn(team: string, matches: (key: string) => boolean): Promise<{ delivered: Promise<void> }> {
  const { open, opened } = latch();
  await runInDurableObject(shardStub(team), (instance) => {
    const shard = (instance as unknown as { workspace: WorkspaceShard }).workspace;
    shard.delivery.events.subscribe((event) => {
      if (event.type === "delivered" && matches(event.key)) open();
    });
  });
  // Wrapped: an async function returning the promise itself would wait for it.
  return { delivered: opened };
}

async function deliverEvent(team: string, event: Record<string, unknown>, eventId = slackId("Ev")): Promise<void> {
  const response = await deliver(await signedEvent(eventCallback(event, { teamId: team, eventId }), signedBy()));
  expect(response.status).toBe(200);
}

/** Two assistant threads of `team` whose contexts the test app saves (its default threadContextChanged). */
async function saveTwoContexts(team: string): Promise<void> {
  for (const viewing of ["C0000ONE", "C0000TWO"]) {
    const eventId = slackId("Ev");
    const { delivered: saved } = await deliveredIn(team, (key) => key.startsWith(`${eventId}:run:`));
    const thread = { user_id: "UINSTALLER", channel_id: `D${viewing}`, thread_ts: messageTs(), context: { channel_id: viewing } };
    await deliverEvent(
      team,
      { type: "assistant_thread_context_changed", assistant_thread: thread, event_ts: messageTs() },
      eventId,
    );
    await saved;
  }
}

const contextsIn = (team: string) =>
  runInDurableObject(shardStub(team), (_, state) =>
    state.storage.sql.exec<{ channel: string }>("SELECT channel FROM assistant_threads ORDER BY channel").toArray(),
  );

/** Sends a lifecycle event and waits until the installation store has applied it and told the shards. */
async function lifecycle(team: string, event: Record<string, unknown>): Promise<void> {
  const { delivered: applied } = await deliveredIn(team, (key) => key.includes(":installation."));
  await deliverEvent(team, event);
  await applied;
}

describe("a workspace's thread contexts go with its installation", () => {
  it("app_uninstalled deletes every thread context of the workspace", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    await saveTwoContexts(team);
    expect(await contextsIn(team)).toHaveLength(2);
    await lifecycle(team, { type: "app_uninstalled" });
    expect(await contextsIn(team)).toEqual([]);
  });

  it("tokens_revoked naming the bot deletes them too", async () => {
    const team = newTeam();
    await install(slack(), { id: team });
    await saveTwoContexts(team);
    await lifecycle(team, { type: "tokens_revoked", tokens: { oauth: [], bot: [`UB${team}`] } });
    expect(await contextsIn(team)).toEqual([]);
  });

  it("tokens_revoked naming only the installing user keeps them: the installation stays", async () => {
    const team = newTeam();
    await install(slack(), { id: team, userToken: true });
    await saveTwoContexts(team);
    await lifecycle(team, { type: "tokens_revoked", tokens: { oauth: ["UINSTALLER"], bot: [] } });
    expect(await contextsIn(team)).toEqual([{ channel: "DC0000ONE" }, { channel: "DC0000TWO" }]);
  });
});
