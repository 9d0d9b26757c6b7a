import { describe, expect, it } from "vitest";
import { signedEvent } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";
import {
  documentedFileEntity,
  ENTITY_DETAILS_REQUESTED_EXAMPLE,
  envelopeOf,
  LINK_SHARED_EXAMPLE,
} from "../support/workObjectPayloads";

// Work Objects through the Worker (test/support/workObjectListeners.ts): Slack's documented
// payloads delivered signed, the fake Slack recording what the app answered.

const slack = useFakeSlack();

async function deliverEvent(team: string, event: Record<string, unknown>) {
  const response = await deliver(await signedEvent(envelopeOf(team, event), signedBy()));
  expect(response.status).toBe(200);
}

describe("entity_details_requested (a user opened a Work Object's flexpane)", () => {
  it("runs app.entityDetails, which presents the entity on the event's trigger_id", async () => {
    await deliverEvent(newWorkspace(), ENTITY_DETAILS_REQUESTED_EXAMPLE);
    const call = await slack().waitFor("entity.presentDetails");
    expect(call.token).toBe("Bearer xoxb-test-token");
    expect(slack().workObjects.presented).toEqual([
      {
        trigger_id: ENTITY_DETAILS_REQUESTED_EXAMPLE.trigger_id,
        metadata: documentedFileEntity("123", "https://example.com/document/123"),
      },
    ]);
  });

  it("an expired trigger is a refusal, not a retry: a later attempt parks with the reason, never calls Slack again", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    // The immediate attempt's call gets no answer Slack took: its retry would come after the trigger's 3 s.
    slack().failNext("entity.presentDetails", { status: 500 });
    await deliverEvent(team, ENTITY_DETAILS_REQUESTED_EXAMPLE);
    await slack().waitFor("entity.presentDetails");
    await sweepUntilQuiet(shardStub(team), clock, 2);
    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({
      status: "parked",
      attempts: 2,
      last_error: "trigger_id expired (valid 3 seconds): entity.presentDetails gets only the immediate attempt",
    });
    expect(slack().callsTo("entity.presentDetails")).toHaveLength(1);
    expect(slack().workObjects.presented).toEqual([]);
  });
});

describe("link_shared: a Work Object unfurl", () => {
  it("answers chat.unfurl with Work Object metadata, one entity per link, each with its app_unfurl_url", async () => {
    await deliverEvent(newWorkspace(), LINK_SHARED_EXAMPLE);
    await slack().waitFor("chat.unfurl");
    const [unfurl] = slack().workObjects.unfurled;
    expect(unfurl).toEqual({
      channel: LINK_SHARED_EXAMPLE.channel,
      ts: LINK_SHARED_EXAMPLE.message_ts,
      entities: LINK_SHARED_EXAMPLE.links.map((link) => ({
        ...documentedFileEntity(new URL(link.url).pathname, link.url),
        app_unfurl_url: link.url,
      })),
    });
  });
});
