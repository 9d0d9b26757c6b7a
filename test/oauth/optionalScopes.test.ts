import { describe, expect, it, vi } from "vitest";
import { installationStub } from "../../src/rpc/installationStubs";
import { eventCallback, signedEvent, slackId } from "../../src/testing/deliveries";
import { deliver, signedBy, storedFor } from "../support/coordinator";
import { coordinatorEnv, install, newTeam } from "../support/oauth";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 45 point 5: the install records the bot scopes a workspace granted (oauth.v2.access's
// `scope`: Slack's optional scopes may be declined) and serves them with the token; a listener
// needing an optional scope the workspace did not grant (test app: `pin_added`, `scopes: "optional"`,
// so `pins:read`) is skipped there — delivered, nothing called, one log line per workspace.

const slack = useFakeSlack();
const WITHOUT_PINS = ["app_mentions:read", "chat:write"];

const pinAdded = (team: string) =>
  eventCallback(
    { type: "pin_added", user: "U1", channel_id: "C0PINS", item: { type: "message" }, event_ts: "1.1" },
    { teamId: team, eventId: slackId("Ev") },
  );

const pinnedPosts = (team: string) =>
  slack()
    .callsTo("chat.postMessage")
    .filter((call) => call.token === `Bearer xoxb-${team}-install` && call.body.text === "pinned");

const skippedLines = (spy: { mock: { calls: unknown[][] } }, team: string) =>
  spy.mock.calls.filter(([line]) => String(line).includes("listener skipped") && String(line).includes(team));

describe("optional scopes in OAuth mode", () => {
  it("the install records the granted bot scopes and serves them with the token", async () => {
    const team = newTeam();
    await install(slack(), { id: team, botScopes: [...WITHOUT_PINS, "pins:read"] });
    const answer = await installationStub(coordinatorEnv, team).token();
    expect(answer).toMatchObject({ status: "installed", botScopes: [...WITHOUT_PINS, "pins:read"] });
    // The file's first request loads the Worker's whole module graph (seconds on a busy machine).
  }, 30_000);

  it("a workspace that granted the listener's optional scope runs it", async () => {
    const team = newTeam();
    await install(slack(), { id: team, botScopes: [...WITHOUT_PINS, "pins:read"] });
    expect((await deliver(await signedEvent(pinAdded(team), signedBy()))).status).toBe(200);
    await vi.waitFor(() => expect(pinnedPosts(team)).toHaveLength(1));
  });

  it("a workspace that did not grant it skips the listener: delivered, nothing called, said once", async () => {
    const team = newTeam();
    await install(slack(), { id: team, botScopes: WITHOUT_PINS });
    const info = vi.spyOn(console, "log");
    for (let i = 0; i < 2; i++) expect((await deliver(await signedEvent(pinAdded(team), signedBy()))).status).toBe(200);
    await vi.waitFor(async () =>
      expect(await storedFor(team)).toEqual({ receipts: 2, outbox: { pending: 0, parked: 0, stopped: 0 } }),
    );
    expect(pinnedPosts(team)).toEqual([]);
    expect(slack().calls.filter((call) => call.token === `Bearer xoxb-${team}-install`)).toEqual([]);
    const lines = skippedLines(info, team);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(String(lines[0]?.[0]))).toMatchObject({
      workspace: team,
      listener: "event:pin_added",
      scopes: "pins:read",
    });
  });
});
