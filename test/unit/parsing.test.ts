import { describe, expect, it } from "vitest";
import { type DeliveryHeaders, parseSlackRequest } from "../../src/inbound/parseSlackRequest";
import { MalformedPayload } from "../../src/platform/errors";
import { appMention, eventCallback, slashCommandFields } from "../../src/testing/deliveries";

const json: DeliveryHeaders = { contentType: "application/json", retryNum: null, retryReason: null };
const form: DeliveryHeaders = { contentType: "application/x-www-form-urlencoded", retryNum: null, retryReason: null };
const interaction = (payload: Record<string, unknown>) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

function inboundOf(body: string, headers = json) {
  const parsed = parseSlackRequest(body, headers);
  if (parsed.kind !== "inbound") throw new Error(`expected inbound, got ${parsed.kind}`);
  return parsed.inbound;
}

describe("parsing into one inbound shape", () => {
  it("Events API: event_id is the dedupe key; message-like events carry a fact key; retry headers are kept", () => {
    const mention = appMention({ channel: "C1", ts: "1700000000.000100" });
    const inbound = inboundOf(JSON.stringify(eventCallback(mention, { teamId: "T1", eventId: "Ev1" })), {
      ...json,
      retryNum: "2",
      retryReason: "http_timeout",
    });
    expect(inbound).toMatchObject({
      kind: "event",
      dedupeKey: "Ev1",
      workspace: "T1",
      teamId: "T1",
      type: "app_mention",
      factKey: "T1:C1:1700000000.000100",
      retryNum: 2,
      retryReason: "http_timeout",
      isEnterpriseInstall: false,
    });
  });

  it("Events API: missing event_id, event, or any workspace id → MalformedPayload", () => {
    for (const field of ["event_id", "event"]) {
      const envelope = eventCallback(appMention());
      delete envelope[field];
      expect(() => parseSlackRequest(JSON.stringify(envelope), json)).toThrow(MalformedPayload);
    }
    const noTeam = eventCallback(appMention());
    delete noTeam.team_id;
    (noTeam.authorizations as Array<Record<string, unknown>>)[0]!.team_id = null;
    expect(() => parseSlackRequest(JSON.stringify(noTeam), json)).toThrow(/missing team or enterprise id/);
    expect(() => parseSlackRequest("[1,2]", json)).toThrow(MalformedPayload);
    expect(() => parseSlackRequest("{}", json)).toThrow(MalformedPayload);
  });

  it("slash commands: trigger_id is the dedupe key, the command is the type", () => {
    const fields = slashCommandFields("/echo", "hi there", { team_id: "T1", trigger_id: "111.222.abc" });
    const inbound = inboundOf(new URLSearchParams(fields).toString(), form);
    expect(inbound).toMatchObject({ kind: "command", dedupeKey: "111.222.abc", workspace: "T1", type: "/echo" });
    expect(inbound.payload.text).toBe("hi there");
  });

  it("Events API: the installation is the authorization's, not the envelope's team (shared channels), as in Bolt", () => {
    const envelope = eventCallback(appMention(), { teamId: "TOTHERORG" });
    (envelope.authorizations as Array<Record<string, unknown>>)[0]!.team_id = "TOURS";
    expect(inboundOf(JSON.stringify(envelope))).toMatchObject({ workspace: "TOURS", teamId: "TOURS" });
  });

  it("interactivity: every accepted type, keyed by trigger_id (view_closed by view id)", () => {
    const team = { id: "T1", domain: "x" };
    for (const type of ["block_actions", "view_submission", "shortcut", "message_action"]) {
      const inbound = inboundOf(interaction({ type, team, trigger_id: `trig-${type}`, user: { id: "U1" } }), form);
      expect(inbound).toMatchObject({ kind: "interaction", type, dedupeKey: `trig-${type}`, workspace: "T1" });
    }
    const closed = inboundOf(interaction({ type: "view_closed", team, view: { id: "V123" }, user: { id: "U1" } }), form);
    expect(closed.dedupeKey).toBe("view_closed:V123");
  });

  it("interactivity from an org-wide install routes by enterprise", () => {
    const inbound = inboundOf(
      interaction({
        type: "view_submission",
        team: null,
        enterprise: { id: "E1" },
        is_enterprise_install: true,
        trigger_id: "t1",
        view: { id: "V1" },
      }),
      form,
    );
    expect(inbound.workspace).toBe("E1");
  });

  it("interactivity from a view opened by another workspace's installation routes by view.app_installed_team_id", () => {
    const inbound = inboundOf(
      interaction({
        type: "view_submission",
        team: { id: "T2" },
        trigger_id: "t2",
        view: { id: "V2", app_installed_team_id: "T1" },
      }),
      form,
    );
    expect(inbound).toMatchObject({ workspace: "T1", teamId: "T1" });
  });

  it("interactivity: unknown types are ignored, broken payloads are malformed", () => {
    expect(parseSlackRequest(interaction({ type: "dialog_suggestion", team: { id: "T1" } }), form)).toEqual({
      kind: "ignored",
      reason: "interaction dialog_suggestion",
    });
    expect(() => parseSlackRequest("payload=%7Bbroken", form)).toThrow(MalformedPayload);
    expect(() => parseSlackRequest(interaction({ type: "block_actions", team: { id: "T1" } }), form)).toThrow(/trigger_id/);
    expect(() => parseSlackRequest(interaction({ type: "block_actions", trigger_id: "t" }), form)).toThrow(/team or enterprise/);
  });

  it("an options load (block_suggestion) is an inbound in every mode, keyed by a digest (it has no id)", () => {
    const suggestion = interaction({ type: "block_suggestion", team: { id: "T1" }, action_id: "pick", value: "ab" });
    const parsed = parseSlackRequest(suggestion, { ...form, timestamp: "1700000000" });
    expect(parsed).toMatchObject({
      kind: "inbound",
      inbound: { kind: "interaction", type: "block_suggestion", workspace: "T1" },
    });
    expect(parsed.kind === "inbound" && parsed.inbound.dedupeKey).toMatch(/^block_suggestion:[0-9a-f]{16}$/);
  });

  it("relay mode: what the coordinator would ignore is an inbound too, keyed by a digest when it has no id", () => {
    const suggestion = interaction({ type: "block_suggestion", team: { id: "T1" }, action_id: "pick", value: "ab" });
    const at = (timestamp: string) => ({ ...form, timestamp });
    const parsed = parseSlackRequest(suggestion, at("1700000000"), true);
    expect(parsed).toMatchObject({
      kind: "inbound",
      inbound: { kind: "interaction", type: "block_suggestion", workspace: "T1" },
    });
    const key = parsed.kind === "inbound" ? parsed.inbound.dedupeKey : "";
    expect(key).toMatch(/^block_suggestion:[0-9a-f]{16}$/);
    // The same request is the same key; the same query typed again a second later is another one.
    expect(parseSlackRequest(suggestion, at("1700000000"), true)).toMatchObject({ inbound: { dedupeKey: key } });
    expect(parseSlackRequest(suggestion, at("1700000001"), true)).not.toMatchObject({ inbound: { dedupeKey: key } });
    const other = interaction({ type: "block_suggestion", team: { id: "T1" }, action_id: "pick", value: "abc" });
    expect(parseSlackRequest(other, at("1700000000"), true)).not.toMatchObject({ inbound: { dedupeKey: key } });
    // An envelope is keyed by its bytes alone: Slack's retry of it is a duplicate.
    const limited = JSON.stringify({
      type: "app_rate_limited",
      team_id: "T1",
      minute_rate_limited: 1518467820,
      api_app_id: "A1",
    });
    const first = parseSlackRequest(limited, { ...json, timestamp: "1700000000" }, true);
    expect(first).toMatchObject({
      kind: "inbound",
      inbound: {
        kind: "event",
        type: "app_rate_limited",
        workspace: "T1",
        dedupeKey: expect.stringMatching(/^app_rate_limited:/),
      },
    });
    const retried = parseSlackRequest(limited, { ...json, timestamp: "1700000060", retryNum: "1" }, true);
    expect(retried.kind === "inbound" && first.kind === "inbound" && retried.inbound.dedupeKey).toBe(
      first.kind === "inbound" && first.inbound.dedupeKey,
    );
    // Without a workspace there is no shard to record it in: still ignored.
    expect(parseSlackRequest(JSON.stringify({ type: "app_rate_limited" }), json, true)).toMatchObject({ kind: "ignored" });
  });

  it("url_verification, ssl_check and unknown envelopes are recognised without storing anything", () => {
    expect(parseSlackRequest(JSON.stringify({ type: "url_verification", challenge: "c" }), json)).toEqual({
      kind: "url_verification",
      challenge: "c",
    });
    expect(parseSlackRequest("ssl_check=1&token=x", form)).toEqual({ kind: "ssl_check" });
    expect(parseSlackRequest(JSON.stringify({ type: "app_rate_limited", team_id: "T1", minute_rate_limited: 60 }), json)).toEqual(
      {
        kind: "app_rate_limited",
        workspace: "T1",
        minute: 60,
      },
    );
    expect(parseSlackRequest(JSON.stringify({ type: "app_unknown_envelope", team_id: "T1" }), json)).toEqual({
      kind: "ignored",
      reason: "envelope app_unknown_envelope",
    });
  });

  it("Events API: an org-wide install's envelope without team_id (team_access_granted) belongs to its enterprise", () => {
    // The shape Slack sends an org-wide install when workspaces are added to it.
    const envelope = {
      token: "unused",
      enterprise_id: "E0ORG",
      api_app_id: "A0000TEST",
      event: { type: "team_access_granted", team_ids: ["T0A", "T0B"], event_ts: "1606113463.002800" },
      type: "event_callback",
      event_id: "Ev0GRANTED",
      event_time: 1606113463,
      authorizations: [{ enterprise_id: "E0ORG", team_id: null, user_id: "W0BOT", is_bot: true, is_enterprise_install: true }],
      is_ext_shared_channel: false,
    };
    expect(inboundOf(JSON.stringify(envelope))).toMatchObject({
      kind: "event",
      dedupeKey: "Ev0GRANTED",
      workspace: "E0ORG",
      enterpriseId: "E0ORG",
      isEnterpriseInstall: true,
      type: "team_access_granted",
    });
  });
});
