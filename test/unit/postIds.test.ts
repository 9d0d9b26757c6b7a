import { describe, expect, it } from "vitest";
import { Paced, SlackApiError } from "../../src/platform/errors";
import { CLOCK_SLACK_MS, findPosted, readablePlace } from "../../src/slack/postedMessages";
import { POST_EVENT_TYPE, POST_ID_FIELD, postIdOf, withPostId } from "../../src/slack/postIds";

describe("a post's id in its message metadata", () => {
  it("is the coordinator's event type and the id when the app sent no metadata", () => {
    expect(withPostId({ channel: "C1", text: "hi" }, "k#placeholder#1")).toEqual({
      channel: "C1",
      text: "hi",
      metadata: { event_type: POST_EVENT_TYPE, event_payload: { [POST_ID_FIELD]: "k#placeholder#1" } },
    });
  });

  it("keeps the app's own event type and payload beside the id, given as an object or as the JSON string form bodies carry", () => {
    const own = { event_type: "task_created", event_payload: { task: "T-9" } };
    const expected = { event_type: "task_created", event_payload: { task: "T-9", [POST_ID_FIELD]: "k##2" } };
    expect(withPostId({ channel: "C1", metadata: own }, "k##2").metadata).toEqual(expected);
    expect(withPostId({ channel: "C1", metadata: JSON.stringify(own) }, "k##2").metadata).toEqual(expected);
    // Unreadable metadata is not the app's: the id goes alone (the app's post would have been refused anyway).
    expect(withPostId({ metadata: "{not json" }, "k##3").metadata).toEqual({
      event_type: POST_EVENT_TYPE,
      event_payload: { [POST_ID_FIELD]: "k##3" },
    });
  });

  it("is read back from a message Slack shows, and only from ours", () => {
    const posted = withPostId({ text: "x" }, "k##1");
    expect(postIdOf({ ts: "1.1", metadata: posted.metadata })).toBe("k##1");
    expect(postIdOf({ ts: "1.2", metadata: { event_type: "other", event_payload: { id: "k##1" } } })).toBeUndefined();
    expect(postIdOf({ ts: "1.3" })).toBeUndefined();
    expect(postIdOf("not a message")).toBeUndefined();
  });
});

describe("looking for posts in a conversation", () => {
  const ours = (id: string, ts: string) => ({ ts, text: id, bot_id: "B1", ...withPostId({}, id) });
  type Read = (method: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** `read` behind a token whose bot is B1: auth.test is answered here, and counted in `asked`. */
  const asB1 = (read: Read, asked = { authTests: 0 }): Read => {
    return async (method, body) => {
      if (method !== "auth.test") return read(method, body);
      asked.authTests++;
      return { ok: true, bot_id: "B1", user_id: "U1" };
    };
  };

  it("reads a thread by conversations.replies and a channel by conversations.history, from the attempt's start less the clock slack", async () => {
    const reads: Array<[string, Record<string, unknown>]> = [];
    const read = async (method: string, body: Record<string, unknown>) => {
      reads.push([method, body]);
      return { ok: true, messages: [ours("k##1", "5.000001"), { ts: "5.000002", text: "someone" }], has_more: false };
    };
    const since = 1_700_000_000_000;
    const thread = await findPosted(asB1(read), { channel: "C1", threadTs: "4.000001" }, since, 15);
    const channel = await findPosted(asB1(read), { channel: "C1" }, since, 15);
    const oldest = ((since - CLOCK_SLACK_MS) / 1000).toFixed(6);
    expect(reads).toEqual([
      ["conversations.replies", { channel: "C1", ts: "4.000001", oldest, limit: 15, include_all_metadata: true }],
      ["conversations.history", { channel: "C1", oldest, limit: 15, include_all_metadata: true }],
    ]);
    for (const found of [thread, channel]) {
      expect([...found.byId.keys()]).toEqual(["k##1"]);
      expect(found.complete).toBe(true);
    }
  });

  it("follows the cursor up to three pages, and ends incomplete when a later page's turn is not now", async () => {
    let page = 0;
    const pages = async (_method: string, body: Record<string, unknown>) => {
      page++;
      return {
        ok: true,
        messages: [ours(`k##${page}`, `5.00000${page}`)],
        has_more: true,
        response_metadata: { next_cursor: `c${page}`, seen: body.cursor },
      };
    };
    const read = await findPosted(asB1(pages), { channel: "C1" }, 0, 15);
    expect([...read.byId.keys()]).toEqual(["k##1", "k##2", "k##3"]);
    expect(read.complete).toBe(false);

    let calls = 0;
    const paced = async () => {
      calls++;
      if (calls > 1) throw new Paced("conversations.history", Date.now() + 60_000);
      return { ok: true, messages: [ours("k##1", "5.000001")], has_more: true, response_metadata: { next_cursor: "c1" } };
    };
    const partial = await findPosted(asB1(paced), { channel: "C1" }, 0, 15);
    expect([...partial.byId.keys()]).toEqual(["k##1"]);
    expect(partial.complete).toBe(false);
  });

  it("takes a message carrying an id only when the app's bot posted it, and asks auth.test only when one carries an id", async () => {
    const forged = { ...ours("k##1", "5.000003"), bot_id: "B2", app_id: "A2", user: "U2" };
    const byPerson = { ts: "5.000004", user: "U3", ...withPostId({}, "k##2") };
    const asked = { authTests: 0 };
    const shown = (messages: unknown[]) => asB1(async () => ({ ok: true, messages, has_more: false }), asked);
    const found = await findPosted(shown([ours("k##1", "5.000001"), forged, byPerson]), { channel: "C1" }, 0, 15);
    expect([...found.byId.entries()]).toEqual([["k##1", ours("k##1", "5.000001")]]);
    expect(asked.authTests).toBe(1);
    expect((await findPosted(shown([forged]), { channel: "C1" }, 0, 15)).byId.size).toBe(0);
    expect((await findPosted(shown([{ ts: "5.000005", text: "no id" }]), { channel: "C1" }, 0, 15)).byId.size).toBe(0);
    expect(asked.authTests).toBe(2);
  });

  it("throws what the first page's call throws: its turn to wait for, Slack's refusal", async () => {
    const paced = new Paced("conversations.replies", Date.now() + 60_000);
    await expect(findPosted(async () => Promise.reject(paced), { channel: "C1", threadTs: "1.1" }, 0, 15)).rejects.toBe(paced);
    const refused = new SlackApiError("conversations.replies", 200, "missing_scope", "park");
    await expect(findPosted(async () => Promise.reject(refused), { channel: "C1", threadTs: "1.1" }, 0, 15)).rejects.toBe(
      refused,
    );
  });

  it("takes only conversation ids Slack's reads take: a user id or a channel name cannot be looked for", () => {
    expect(readablePlace({ channel: "C0123", thread_ts: "1.2" })).toEqual({ channel: "C0123", threadTs: "1.2" });
    expect(readablePlace({ channel: "D0123" })).toEqual({ channel: "D0123" });
    expect(readablePlace({ channel: "U0123" })).toBeUndefined();
    expect(readablePlace({ channel: "#general" })).toBeUndefined();
  });
});
