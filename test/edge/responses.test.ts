import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { MAX_BODY_BYTES } from "../../src/platform/readRawBody";
import {
  appMention,
  eventCallback,
  orgWideEnvelope,
  sign,
  signedEvent,
  signedForm,
  slackId,
  slashCommandFields,
} from "../../src/testing/deliveries";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";

// One test per row of DESIGN.md §3 "Responses (Slack endpoints)".

const nothingStored = { receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } };

describe("response table", () => {
  it("missing signature headers → 401, nothing stored", async () => {
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    delete delivery.headers["x-slack-signature"];
    const response = await deliver(delivery);
    expect(response.status).toBe(401);
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("invalid signature → 401, nothing stored", async () => {
    const team = newWorkspace();
    const envelope = eventCallback(appMention(), { teamId: team });
    const response = await deliver(await signedEvent(envelope, { secret: "not-the-secret" }));
    expect(response.status).toBe(401);
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("timestamp older than 300 s or more than 300 s ahead → 401, nothing stored", async () => {
    const team = newWorkspace();
    const now = Math.floor(Date.now() / 1000);
    // 302 ahead: still more than 300 s ahead if a second ticks over before the Worker checks it.
    for (const timestamp of [now - 301, now + 302]) {
      const envelope = eventCallback(appMention(), { teamId: team });
      const response = await deliver(await signedEvent(envelope, signedBy({ timestamp })));
      expect(response.status).toBe(401);
    }
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("a stale timestamp is refused before the body is read: 401 even for a body over the cap", async () => {
    const team = newWorkspace();
    const envelope = eventCallback(appMention({ text: "x".repeat(MAX_BODY_BYTES) }), { teamId: team });
    const response = await deliver(await signedEvent(envelope, signedBy({ timestamp: Math.floor(Date.now() / 1000) - 301 })));
    expect(response.status).toBe(401);
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("body larger than 1 MiB → 413, nothing stored", async () => {
    const team = newWorkspace();
    const envelope = eventCallback(appMention({ text: "x".repeat(MAX_BODY_BYTES) }), { teamId: team });
    const response = await deliver(await signedEvent(envelope, signedBy()));
    expect(response.status).toBe(413);
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("signed but unparseable (no workspace to store it under) → 400 with x-slack-no-retry", async () => {
    const response = await deliver(await sign("{not json", "application/json", signedBy()));
    expect(response.status).toBe(400);
    expect(response.headers.get("x-slack-no-retry")).toBe("1");
  });

  it("signed but never recordable (10,000 levels of nesting) → 400 with x-slack-no-retry, nothing stored", async () => {
    const team = newWorkspace();
    const envelope = eventCallback({ ...appMention(), attachments: "DEEP" }, { teamId: team });
    const body = JSON.stringify(envelope).replace('"DEEP"', `${"[".repeat(10_000)}${"]".repeat(10_000)}`);
    const response = await deliver(await sign(body, "application/json", signedBy()));
    expect(response.status).toBe(400);
    expect(response.headers.get("x-slack-no-retry")).toBe("1");
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("signed but missing required fields → 400 with x-slack-no-retry, nothing stored", async () => {
    const team = newWorkspace();
    const envelope = eventCallback(appMention(), { teamId: team });
    delete envelope.event_id;
    const noEventId = await deliver(await signedEvent(envelope, signedBy()));
    expect(noEventId.status).toBe(400);
    expect(noEventId.headers.get("x-slack-no-retry")).toBe("1");

    const fields = slashCommandFields("/echo", "hi", { team_id: team });
    delete fields.trigger_id;
    const noTrigger = await deliver(await signedForm(fields, signedBy()), "/slack/commands");
    expect(noTrigger.status).toBe(400);
    expect(noTrigger.headers.get("x-slack-no-retry")).toBe("1");
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("app_rate_limited → 200, nothing stored in the workspace's shard; the watch counts it (GET /admin/health)", async () => {
    const team = newWorkspace();
    const notice = { token: "x", type: "app_rate_limited", team_id: team, minute_rate_limited: 1_796_000_100, api_app_id: "A1" };
    expect((await deliver(await signedEvent(notice, signedBy()))).status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
    await vi.waitFor(async () => {
      const health = (await (await adminGet("/admin/health")).json()) as { app_rate_limited: { latest: unknown } };
      expect(health.app_rate_limited.latest).toMatchObject({ workspace: team, minute: 1_796_000_100 });
    });
  });

  it("url_verification → 200 with the challenge, after the signature check", async () => {
    const body = { token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", type: "url_verification" };
    const response = await deliver(await signedEvent(body, signedBy()));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: body.challenge });

    const forged = await deliver(await signedEvent(body, { secret: "forged" }));
    expect(forged.status).toBe(401);
  });

  it.each(["/slack/events", "/slack/events/", "/slack/events?from=slack"])(
    "url_verification at %s → 200 with the challenge (handed over by path, or by the router)",
    async (path) => {
      const body = { token: "x", challenge: "c-42", type: "url_verification" };
      const response = await deliver(await signedEvent(body, signedBy()), path);
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { challenge: "c-42" } });
    },
  );

  it("a GET of a Slack path is no Slack delivery → 404", async () => {
    const response = await exports.default.fetch(new Request("https://coordinator.test/slack/events"));
    expect(response.status).toBe(404);
  });

  it("ssl_check → 200", async () => {
    const response = await deliver(await signedForm({ ssl_check: "1", token: "x" }, signedBy()), "/slack/commands");
    expect(response.status).toBe(200);
  });

  it("duplicate (same event_id) → 200, nothing new stored", async () => {
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);
    const retry = await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_timeout" }));
    const response = await deliver(retry);
    expect(response.status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
  });

  it("deliberately ignored (no handler, a bot's message) → 200, nothing stored", async () => {
    const team = newWorkspace();
    const reaction = eventCallback(
      { type: "reaction_added", user: "U1", reaction: "tada", item: { type: "message", channel: "C1", ts: "1.1" } },
      { teamId: team },
    );
    expect((await deliver(await signedEvent(reaction, signedBy()))).status).toBe(200);

    const fromBot = eventCallback({ ...appMention(), bot_id: "B0000OTHER" }, { teamId: team });
    expect((await deliver(await signedEvent(fromBot, signedBy()))).status).toBe(200);

    const rateLimited = {
      token: "x",
      type: "app_rate_limited",
      team_id: team,
      minute_rate_limited: 1518467820,
      api_app_id: "A1",
    };
    expect((await deliver(await signedEvent(rateLimited, signedBy()))).status).toBe(200);

    const unknownCommand = slashCommandFields("/unknown", "x", { team_id: team });
    expect((await deliver(await signedForm(unknownCommand, signedBy()), "/slack/commands")).status).toBe(200);
    expect(await storedFor(team)).toEqual(nothingStored);
  });

  it("an org-wide install's envelope without team_id (team_access_granted) → 200, never 400", async () => {
    const envelope = {
      enterprise_id: "E0ORGWIDE",
      api_app_id: "A0000TEST",
      event: { type: "team_access_granted", team_ids: ["T0A"], event_ts: "1606113463.002800" },
      type: "event_callback",
      event_id: "Ev0ORGWIDE",
      event_time: 1606113463,
      authorizations: [
        { enterprise_id: "E0ORGWIDE", team_id: null, user_id: "W0BOT", is_bot: true, is_enterprise_install: true },
      ],
    };
    const response = await deliver(await signedEvent(envelope, signedBy()));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-slack-no-retry")).toBeNull();
  });

  it("org-wide envelopes naming only the enterprise (team_id absent or null, no authorizations) → 200, recorded in its shard", async () => {
    const org = slackId("E");
    const events = [
      { type: "team_access_granted", team_ids: ["T0A", "T0B"], event_ts: "1606805974.000100" },
      { type: "tokens_revoked", tokens: { oauth: ["W0USER"], bot: ["W0BOT"] } },
      { type: "app_uninstalled" },
    ];
    for (const teamId of ["absent", "null"] as const) {
      for (const event of events) {
        const response = await deliver(await signedEvent(orgWideEnvelope(event, org, teamId), signedBy()));
        expect(response.status).toBe(200);
        expect(response.headers.get("x-slack-no-retry")).toBeNull();
      }
    }
    // Recorded under the enterprise: the two the test app listens to (team_access_granted).
    expect((await storedFor(org)).receipts).toBe(2);
  });

  it("an envelope naming neither a team nor an enterprise → 400 with x-slack-no-retry", async () => {
    const envelope = orgWideEnvelope({ type: "app_uninstalled" }, "unused", "null");
    delete envelope.enterprise_id;
    const response = await deliver(await signedEvent(envelope, signedBy()));
    expect(response.status).toBe(400);
    expect(response.headers.get("x-slack-no-retry")).toBe("1");
  });

  it("accepted app_mention → 200 after its receipt and the outbox row of its listener's run are stored", async () => {
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team);
    const response = await deliver(delivery);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 1, parked: 0, stopped: 0 } });
    expect((await outboxRows(shardStub(team))).map((row) => row.idempotency_key)).toEqual([
      `${envelope.event_id}:run:event:app_mention`,
    ]);
  });

  it("accepted /echo on every alias → 200 with a receipt and one outbox row (its run) each", async () => {
    const team = newWorkspace();
    for (const path of ["/slack/events", "/slack/commands", "/slack/interactivity"]) {
      const response = await deliver(await signedForm(slashCommandFields("/echo", "hello", { team_id: team }), signedBy()), path);
      expect(response.status).toBe(200);
    }
    expect(await storedFor(team)).toEqual({ receipts: 3, outbox: { pending: 3, parked: 0, stopped: 0 } });
  });
});

describe("other endpoints", () => {
  it("GET /healthz → 200 {ok:true}", async () => {
    const { exports } = await import("cloudflare:workers");
    const response = await exports.default.fetch("https://coordinator.test/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});
