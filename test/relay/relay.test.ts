import { describe, expect, it, vi } from "vitest";
import { standardWebhookSignature } from "../../src/relay/relayHeaders";
import { channelMessage, eventCallback, signedEvent, signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, mentionDelivery, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { expectRelaySigned, useFakeSlackAndBackend } from "../support/fakeBackend";

const { slack, backend } = useFakeSlackAndBackend();

const relayed = () => backend().requests;
const attemptsSeen = () => relayed().map((request) => request.headers.get("x-relay-attempt"));

describe("relay mode: forwarding", () => {
  it("forwards the body byte for byte, re-signed with a fresh timestamp a Slack verifier accepts", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { envelope, delivery } = await mentionDelivery(team, { retryNum: 1 });
    // Signed by Slack a minute ago; the relay signs anew with the backend's secret.
    clock.advance(60_000);
    expect((await deliver(delivery)).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(1));
    const [request] = relayed();
    expect(request!.text).toBe(delivery.body);
    expect(request!.headers.get("content-type")).toBe("application/json");
    const timestamp = request!.headers.get("x-slack-request-timestamp");
    expect(Number(timestamp)).toBe(Math.floor(Date.now() / 1000));
    await expectRelaySigned(request!);
    expect(request!.headers.get("x-relay-delivery-id")).toBe(envelope.event_id);
    expect(request!.headers.get("x-relay-attempt")).toBe("1");
    expect(request!.headers.get("x-slack-retry-num")).toBe("1");
    expect(request!.headers.get("x-slack-retry-reason")).toBe("http_timeout");
  });

  it("forwards slash commands as their original form body, and runs the app's own listeners beside the relay", async () => {
    const fields = slashCommandFields("/echo", "hello there", { team_id: newWorkspace() });
    const delivery = await signedForm(fields, signedBy());
    expect((await deliver(delivery, "/slack/commands")).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(1));
    expect(relayed()[0]!.text).toBe(delivery.body);
    expect(relayed()[0]!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(relayed()[0]!.headers.get("x-relay-delivery-id")).toBe(fields.trigger_id);
    // The test app answers /echo on its response_url: both happened.
    await vi.waitFor(() => expect(slack().callsTo("response_url")).toHaveLength(1));
  });

  it("forwards what the app itself ignores (another bot's message): the backend decides", async () => {
    const team = newWorkspace();
    const envelope = eventCallback(channelMessage({ botId: "B0OTHER", text: "from a bot" }), { teamId: team });
    expect((await deliver(await signedEvent(envelope, signedBy()))).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(1));
    expect(JSON.parse(relayed()[0]!.text).event_id).toBe(envelope.event_id);
  });

  it("a duplicate from Slack is not forwarded again", async () => {
    const { delivery } = await mentionDelivery(newWorkspace());
    expect((await deliver(delivery)).status).toBe(200);
    expect((await deliver(delivery)).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(1));
    await new Promise((settle) => setTimeout(settle, 50));
    expect(relayed()).toHaveLength(1);
  });
});

describe("relay mode: a backend that fails", () => {
  it("500 twice, then 200: delivered on attempt 3 (x-relay-attempt 1, 2, 3)", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    backend().answerNext({ status: 500 }, 2);
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(() => expect(relayed()).toHaveLength(1));
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.retried).toBe(1));
    await sweepUntilQuiet(shardStub(team), clock);
    expect(attemptsSeen()).toEqual(["1", "2", "3"]);
    expect((await shardStub(team).stats()).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("a backend that is down for a while (connections dropped) receives every event once it is back", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    backend().answerNext({ reset: true }, 3);
    const deliveries = await Promise.all([1, 2, 3].map(() => mentionDelivery(team)));
    for (const { delivery } of deliveries) expect((await deliver(delivery)).status).toBe(200);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.retried).toBe(3));
    await sweepUntilQuiet(shardStub(team), clock);
    const delivered = new Set(relayed().map((request) => request.headers.get("x-relay-delivery-id")));
    expect(delivered).toEqual(new Set(deliveries.map(({ envelope }) => envelope.event_id)));
    expect((await shardStub(team).stats()).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("410 parks at once, as does x-slack-no-retry: 1", async () => {
    const team = newWorkspace();
    backend()
      .answerNext({ status: 410 })
      .answerNext({ status: 400, headers: { "x-slack-no-retry": "1" } });
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(async () => expect(await shardStub(team).listParked()).toHaveLength(2));
    const reasons = (await shardStub(team).listParked()).map((row) => row.last_error).sort();
    expect(reasons).toEqual(["relay: backend answered 400 with x-slack-no-retry", "relay: backend answered 410"]);
    expect(relayed()).toHaveLength(2);
  });

  it("keeps retrying until RELAY_RETRY_HOURS after the delivery was recorded, then parks", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    backend().answerNext({ status: 503 }, 100);
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).counters.retried).toBe(1));
    await sweepUntilQuiet(shardStub(team), clock, 6, 15_000);
    const [parked] = await shardStub(team).listParked();
    expect(parked?.last_error).toBe("retry horizon passed; last: relay: backend answered HTTP 503");
    expect(relayed().length).toBeGreaterThan(2);
  });
});

describe("Standard Webhooks signature", () => {
  it("reproduces the specification's published test vector", async () => {
    const body = new TextEncoder().encode('{"test": 2432232314}');
    expect(
      await standardWebhookSignature(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "1614265330",
        body,
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});
