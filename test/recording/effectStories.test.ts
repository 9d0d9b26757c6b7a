import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AttemptStory } from "../../src/rpc/eventStories";
import { controlClock } from "../support/clock";
import { mentionIn } from "../support/inboundOf";
import { outboxOf, recordPlanned } from "../support/shardIn";
import { testApp } from "../support/testApp";
import { LEASE_MS } from "../support/testBindings";

// Issue 42, point 1: an attempt that lost its lease cannot write its story (the fence refuses it):
// the claim that takes its row over writes it, in the same statement.

describe("an effect's story across a take-over", () => {
  it("a row whose attempt's lease ran out: the take-over writes that attempt as lease_lost, then the taker's own attempt follows", async () => {
    const clock = controlClock();
    const stub = env.SHARD.get(env.SHARD.idFromName(`story-${crypto.randomUUID()}`));
    const story = await runInDurableObject(stub, async (_, state) => {
      const outbox = outboxOf(state);
      const lease = (token: string) => ({ token, expiresAt: Date.now() + LEASE_MS });
      recordPlanned(outbox, testApp, mentionIn("T0STORY", "C0STORY", "1700000000.000100", "EvBegan"), lease("began"));
      recordPlanned(outbox, testApp, mentionIn("T0STORY", "C0STORY", "1700000000.000200", "EvInLine"), lease("in-line"));
      const leasedAt = Date.now();
      clock.advance(LEASE_MS + 1);
      const takenAt = Date.now();
      const taken = outbox.claimBatch("taker", takenAt, LEASE_MS, 10);
      const began = taken.find((row) => row.idempotency_key.startsWith("EvBegan"))!.idempotency_key;
      // The taker's own attempt fails for good: the park's UPDATE appends it.
      const attempt: AttemptStory = {
        start: takenAt,
        end: takenAt + 5,
        outcome: "parked",
        error: "chat.postMessage: 200 channel_not_found",
        calls: [{ method: "chat.postMessage", ok: false, error: "chat.postMessage: 200 channel_not_found", ms: 5 }],
      };
      outbox.parked.park(began, "taker", 1, attempt.error!, takenAt + 5, undefined, undefined, null, JSON.stringify(attempt));
      const stories = state.storage.sql
        .exec<{ key: string; story: string | null }>("SELECT idempotency_key AS key, story FROM outbox ORDER BY key")
        .toArray();
      return { leasedAt, takenAt, stories: stories.map((row) => [row.key.split(":")[0], row.story && JSON.parse(row.story)]) };
    });
    expect(story.stories).toEqual([
      [
        "EvBegan",
        [
          {
            start: story.leasedAt,
            end: story.takenAt,
            outcome: "lease_lost",
            error: expect.stringContaining("taken over"),
            calls: [],
          },
          expect.objectContaining({ outcome: "parked", calls: [expect.objectContaining({ method: "chat.postMessage" })] }),
        ],
      ],
      // Rows still waiting in line hold their attempt's own lease (nothing is written as it begins), so the take-over
      // cannot tell them from an attempt that began: their story says the lease was lost too.
      [
        "EvInLine",
        [
          {
            start: story.leasedAt,
            end: story.takenAt,
            outcome: "lease_lost",
            error: expect.stringContaining("taken over"),
            calls: [],
          },
        ],
      ],
    ]);
  });
});
