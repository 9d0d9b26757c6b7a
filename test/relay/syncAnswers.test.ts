import { describe, expect, it, vi } from "vitest";
import type { Inbound } from "../../src/inbound/types";
import { awaitsBackend } from "../../src/relay/relayPlan";
import { relaySettings } from "../../src/settings";
import { signedEvent, signedForm, signedInteraction, slashCommandFields, viewSubmission } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";
import { RELAY_BACKEND_URL, RELAY_SYNC_MS } from "../support/testBindings";

const { backend } = useFakeSlackAndBackend();

const relayed = () => backend().requests;
const pause = (ms: number) => new Promise((later) => setTimeout(later, ms));

/** A slash command to a fresh workspace, as Slack sends it to the commands URL. */
async function command(team = newWorkspace()) {
  const fields = slashCommandFields("/deploy", "production", { team_id: team });
  return { team, fields, delivery: await signedForm(fields, signedBy()) };
}

/** Sends a delivery and measures how long the ack took. */
async function timedDeliver(...args: Parameters<typeof deliver>) {
  const started = Date.now();
  const response = await deliver(...args);
  return { response, body: await response.text(), ackMs: Date.now() - started };
}

describe("which acks wait for the backend", () => {
  const settings = relaySettings({ SLACK_SIGNING_SECRET: "s", RELAY_URL: RELAY_BACKEND_URL })!;
  const inboundOf = (kind: Inbound["kind"]): Inbound => ({
    kind,
    dedupeKey: "k",
    workspace: "T1",
    isEnterpriseInstall: false,
    type: "t",
    payload: {},
    raw: { body: "", contentType: "application/json" },
  });

  it("commands and interactivity, unless RELAY_SYNC_MS is 0 or the app gave an ack body; never events", () => {
    expect(awaitsBackend(inboundOf("command"), settings, undefined)).toBe(true);
    expect(awaitsBackend(inboundOf("interaction"), settings, undefined)).toBe(true);
    expect(awaitsBackend(inboundOf("event"), settings, undefined)).toBe(false);
    expect(awaitsBackend(inboundOf("command"), { ...settings, syncMs: 0 }, undefined)).toBe(false);
    expect(awaitsBackend(inboundOf("command"), settings, { text: "the app's own ack" })).toBe(false);
    expect(awaitsBackend(inboundOf("command"), null, undefined)).toBe(false);
  });
});

describe("relay mode: synchronous answers for commands and interactivity", () => {
  it("a command the backend answers within RELAY_SYNC_MS: its body is the ack, and it is called once", async () => {
    const { team, delivery } = await command();
    const answer = { response_type: "ephemeral", text: "Deploying production…" };
    backend().answerNext({ status: 200, body: JSON.stringify(answer), headers: { "content-type": "application/json" } });
    const { response, body } = await timedDeliver(delivery, "/slack/commands");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(body)).toEqual(answer);
    // Completed, fenced, by that attempt: nothing left to deliver, nothing delivered twice.
    expect((await shardStub(team).stats()).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 });
    await pause(100);
    expect(relayed()).toHaveLength(1);
    expect(relayed()[0]!.headers.get("x-relay-attempt")).toBe("1");
  });

  it("a modal's response_action from the backend reaches Slack in the ack of the view_submission", async () => {
    const team = newWorkspace();
    const payload = viewSubmission({ teamId: team, callbackId: "deploy_form", values: { env: { name: "" } } });
    const answer = { response_action: "errors", errors: { env: "Pick an environment" } };
    backend().answerNext({ status: 200, body: JSON.stringify(answer), headers: { "content-type": "application/json" } });
    const { response, body } = await timedDeliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toEqual(answer);
    expect(relayed()).toHaveLength(1);
  });

  it("an options load (block_suggestion) no embedded listener answers gets the backend's options as its ack", async () => {
    const team = newWorkspace();
    const payload = { type: "block_suggestion", team: { id: team }, user: { id: "U1" }, action_id: "pick_env", value: "pro" };
    const options = { options: [{ text: { type: "plain_text", text: "production" }, value: "production" }] };
    backend().answerNext({ status: 200, body: JSON.stringify(options), headers: { "content-type": "application/json" } });
    const { response, body } = await timedDeliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toEqual(options);
    expect(relayed()).toHaveLength(1);
    expect(JSON.parse(new URLSearchParams(relayed()[0]!.text).get("payload")!)).toEqual(payload);
    expect(relayed()[0]!.headers.get("x-relay-delivery-id")).toMatch(/^block_suggestion:[0-9a-f]{16}$/);
  });

  it("an options load an embedded app.options answers is answered at the edge, neither recorded nor relayed", async () => {
    const team = newWorkspace();
    const payload = { type: "block_suggestion", team: { id: team }, user: { id: "U1" }, action_id: "pick_team_env", value: "st" };
    const { response, body } = await timedDeliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toEqual({ options: [{ text: { type: "plain_text", text: "staging" }, value: "staging" }] });
    expect(await shardStub(team).stats()).toMatchObject({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
    await pause(100);
    expect(relayed()).toEqual([]);
  });

  it("app_rate_limited, which the coordinator alone ignores, is forwarded (and its ack never waits)", async () => {
    const team = newWorkspace();
    const envelope = { token: "x", type: "app_rate_limited", team_id: team, minute_rate_limited: 1518467820, api_app_id: "A1" };
    const { response, body } = await timedDeliver(await signedEvent(envelope, signedBy()));
    expect(response.status).toBe(200);
    expect(body).toBe("");
    await vi.waitFor(() => expect(relayed()).toHaveLength(1));
    expect(JSON.parse(relayed()[0]!.text)).toEqual(envelope);
  });

  it("a backend slower than RELAY_SYNC_MS: Slack gets an empty 200 in time, and the backend still gets it — once", async () => {
    const { team, fields, delivery } = await command();
    backend().answerNext({ status: 200, body: '{"text":"too late"}', delayMs: RELAY_SYNC_MS * 3 });
    const { response, body, ackMs } = await timedDeliver(delivery, "/slack/commands");
    expect(response.status).toBe(200);
    expect(body).toBe("");
    // RELAY_SYNC_MS after arrival, and the time to answer (a loaded test machine: a generous margin).
    expect(ackMs).toBeLessThan(RELAY_SYNC_MS + 300);
    // The first attempt is not cut short: it completes the row when the backend answers.
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.delivered).toBe(1), { timeout: 5_000 });
    expect(relayed().map((request) => request.headers.get("x-relay-delivery-id"))).toEqual([fields.trigger_id]);
    expect((await shardStub(team).stats()).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("a backend that fails inline: an empty 200, and the row is delivered durably afterwards", async () => {
    const { team, delivery } = await command();
    backend().answerNext({ status: 500, body: "boom" });
    const { response, body } = await timedDeliver(delivery, "/slack/commands");
    expect(response.status).toBe(200);
    expect(body).toBe("");
    expect((await shardStub(team).stats()).counters.retried).toBe(1);
    expect((await shardStub(team).stats()).outbox.pending).toBe(1);
    // The sweep's retry (after the backoff) delivers it: attempt 2.
    await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0), { timeout: 10_000 });
    expect(relayed().map((request) => request.headers.get("x-relay-attempt"))).toEqual(["1", "2"]);
  });

  it("Events API requests are never held for the backend", async () => {
    const team = newWorkspace();
    backend().answerNext({ status: 200, body: '{"text":"ignored"}', delayMs: RELAY_SYNC_MS * 3 });
    const { response, body, ackMs } = await timedDeliver((await mentionDelivery(team)).delivery);
    expect(response.status).toBe(200);
    expect(body).toBe("");
    expect(ackMs).toBeLessThan(RELAY_SYNC_MS);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.delivered).toBeGreaterThan(0), {
      timeout: 5_000,
    });
  });

  it("a duplicate of an answered command (Slack's retry) is acked empty and not forwarded again", async () => {
    const { delivery } = await command();
    backend().answerNext({ status: 200, body: '{"text":"first"}', headers: { "content-type": "application/json" } });
    expect(JSON.parse((await timedDeliver(delivery, "/slack/commands")).body)).toEqual({ text: "first" });
    const again = await timedDeliver(delivery, "/slack/commands");
    expect(again.response.status).toBe(200);
    expect(again.body).toBe("");
    expect(relayed()).toHaveLength(1);
  });
});
