import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { appMention, slackId, slashCommandFields } from "../../src/testing/deliveries";
import { newWorkspace } from "../support/coordinator";
import { useFakeSlackAndBackend } from "../support/fakeBackend";
import { eventDelivery, inboundOf } from "../support/inboundOf";
import { workspaceShardIn } from "../support/shardIn";
import { RELAY_SYNC_MS } from "../support/testBindings";

// A shard past its capacity leaves new rows to the sweep, behind older ones (delivery/oldestFirst.ts).
// A relayed command's ack waits RELAY_SYNC_MS for the backend's answer, which only its row's attempt
// brings: left behind, it never came in time, and Slack showed the person an empty ack.

const { backend } = useFakeSlackAndBackend();
const shardOf = (team: string) => env.SHARD.get(env.SHARD.idFromName(`${team}/0`));

describe("relayed commands while rows are left behind", () => {
  it("a relayed slash command starts at once even while rows wait behind the full line: its backend's answer is the ack", async () => {
    const team = newWorkspace();
    const fields = slashCommandFields("/deploy", "production", { team_id: team });
    const command = inboundOf("command", "/deploy", fields, { team, id: slackId("Tr") });
    // The raw request, as the edge keeps it in relay mode (edge/handleSlackRequest.ts).
    command.raw = { body: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" };
    const answer = { response_type: "ephemeral", text: "Deploying production…" };
    backend().answerNext({ status: 200, body: JSON.stringify(answer), headers: { "content-type": "application/json" } });
    const seen = await runInDurableObject(shardOf(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { name: `${team}/0` });
      // As an ingest that found the line full leaves it (test/delivery/oldestFirst.test.ts fills it for real).
      shard.delivery.ready!.oldestFirst.leavesBehind(true);
      const mention = eventDelivery(team, appMention({ channel: slackId("C") }));
      const mentionLease = shard.delivery.leaseFor(Date.now(), undefined, mention);
      const result = await shard.recording.ingest(command);
      // What the edge asks for within RELAY_SYNC_MS (Shard.backendAnswer).
      const ack = await shard.delivery.backendResponse(command.dedupeKey, RELAY_SYNC_MS);
      return { mentionLease, result, ack };
    });
    // An event is still left behind the older rows; the command is not.
    expect(seen.mentionLease).toBeNull();
    expect(seen.result).toMatchObject({ verdict: "accepted", awaitsBackend: true });
    expect(seen.ack).not.toBeNull();
    expect(JSON.parse(seen.ack!.body)).toEqual(answer);
    expect(backend().requests).toHaveLength(1);
    expect(backend().requests[0]!.headers.get("x-relay-delivery-id")).toBe(command.dedupeKey);
  });
});
