import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordSettings } from "../../src/settings";
import { appMention, channelMessage } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { adminGet, deliver, mentionDelivery, newWorkspace, shardStub } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 42, points 1 and 2: a delivery's story, kept in the rows it writes anyway, looked up by id and searched.

const slack = useFakeSlack();
afterEach(() => vi.restoreAllMocks());

type Call = { method: string; ok: boolean; error?: string; ts?: string; ms: number; foundByLookup?: true };
type Attempt = { start: number; end: number; outcome: string; error: string; calls: Call[] };
type Effect = {
  key: string;
  status: string;
  effect: string | null;
  attempts: number | null;
  lastError: string | null;
  history: Attempt[];
};
type Story = {
  shard: string;
  id: string;
  workspace: string;
  channel: string;
  user: string;
  receivedAt: number;
  retryNum: number | null;
  status: string;
  effects: Effect[];
  payload: { event: Record<string, unknown> } | null;
};
type Page = { events: Story[]; cursor: string | null; unreachable: string[] };

const story = async (id: string, query = "") => adminGet(`/admin/api/events/${encodeURIComponent(id)}${query}`);
const list = async (query: string) => (await (await adminGet(`/admin/api/events?${query}`)).json()) as Page;

/** A mention in `team`, delivered; its event_id. */
async function mention(team: string, event: Record<string, unknown> = appMention()): Promise<string> {
  const { envelope, delivery } = await mentionDelivery(team, { event });
  expect((await deliver(delivery)).status).toBe(200);
  return String(envelope.event_id);
}

describe("an event's story (GET /admin/api/events/{id})", () => {
  it("a delivered mention: its ids, when it came, its payload, and its one effect done", async () => {
    const team = newWorkspace();
    const id = await mention(team, appMention({ channel: "C0STORY01", user: "U0STORY01", text: "<@U0000BOT> hi" }));
    await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(1));
    await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0));
    const answer = await story(id);
    expect(answer.status).toBe(200);
    const found = (await answer.json()) as Story;
    expect(found).toMatchObject({
      shard: `${team}/0`,
      id,
      workspace: team,
      channel: "C0STORY01",
      user: "U0STORY01",
      retryNum: null,
      status: "done",
      unreachable: [],
    });
    expect(found.effects).toEqual([
      expect.objectContaining({ key: expect.stringMatching(new RegExp(`^${id}:`)), status: "done" }),
    ]);
    expect(found.payload?.event).toMatchObject({ type: "app_mention", text: "<@U0000BOT> hi", channel: "C0STORY01" });
    // The legacy verification token is never kept.
    expect(JSON.stringify(found.payload)).not.toContain("verification");
    // ?workspace= asks that workspace's shards only.
    expect((await story(id, `?workspace=${team}`)).status).toBe(200);
    expect((await story(id, `?workspace=${newWorkspace()}`)).status).toBe(404);
  });

  it("a parked one shows its effect parked, with its error and attempts", async () => {
    const team = newWorkspace();
    slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
    const id = await mention(team);
    await vi.waitFor(async () => expect(await shardStub(team).listParked()).toHaveLength(1));
    const found = (await (await story(id)).json()) as Story;
    expect(found.status).toBe("parked");
    expect(found.effects).toEqual([
      expect.objectContaining({
        status: "parked",
        effect: "run",
        attempts: 1,
        lastError: "chat.postMessage: 200 channel_not_found",
      }),
    ]);
    // Its attempt, written by the park's own UPDATE: when, how it ended, and the Slack call that failed.
    const { history } = found.effects[0]!;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ outcome: "parked", error: "chat.postMessage: 200 channel_not_found" });
    expect(history[0]!.calls).toEqual([
      { method: "chat.postMessage", ok: false, error: "chat.postMessage: 200 channel_not_found", ms: expect.any(Number) },
    ]);
    expect(history[0]!.end).toBeGreaterThanOrEqual(history[0]!.start);
  });

  it("an effect retried, then parked: both attempts, each with the call that failed", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack()
      .fail({ method: "chat.postMessage" }, { status: 500 }, 1)
      .fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
    const id = await mention(team);
    const effect = async () => ((await (await story(id)).json()) as Story).effects[0]!;
    await vi.waitFor(async () => expect((await effect()).history).toHaveLength(1));
    expect(await effect()).toMatchObject({ status: "pending", attempts: 1, history: [{ outcome: "retried" }] });
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    const { status, history } = await effect();
    expect(status).toBe("parked");
    // The second attempt looked for the first one's post (its answer was lost: a 500) before posting again.
    expect(history.map((attempt) => [attempt.outcome, attempt.calls.map((call) => [call.method, call.error ?? "ok"])])).toEqual([
      ["retried", [["chat.postMessage", "chat.postMessage: 500 http_500"]]],
      [
        "parked",
        [
          ["conversations.replies", "ok"],
          ["chat.postMessage", "chat.postMessage: 200 channel_not_found"],
        ],
      ],
    ]);
  });

  it("a post a lookup found instead of making it shows as found by lookup, with its ts", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    // "answer carefully" says "thinking…" then "done thinking": the first post's answer is lost after
    // Slack applied it; the retry finds it, then its second post fails (a 500), so the retry's story is kept.
    slack()
      .fail({ method: "chat.postMessage" }, { lostAnswer: "reset" }, 1)
      .fail({ method: "chat.postMessage" }, { status: 500 }, 1);
    const event = channelMessage({ text: "answer carefully" });
    const id = await mention(team, event);
    const effect = async () => ((await (await story(id)).json()) as Story).effects[0]!;
    await vi.waitFor(async () => expect((await effect()).history).toHaveLength(1));
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    const { history } = await effect();
    const [thinking] = slack().messagesIn(String(event.channel));
    expect(history[0]!.calls).toEqual([expect.objectContaining({ method: "chat.postMessage", ok: false })]);
    expect(history[1]!.calls).toContainEqual({
      method: "chat.postMessage",
      ok: true,
      ts: thinking!.ts,
      ms: 0,
      foundByLookup: true,
    });
    // The lookup's read, and the second post that failed, were made: neither is marked.
    expect(history[1]!.calls.filter((call) => call.foundByLookup)).toHaveLength(1);
    expect(history[1]!.calls.map((call) => call.method)).toEqual(
      expect.arrayContaining(["conversations.history", "chat.postMessage", "chat.postMessage"]),
    );
  });

  it("an unknown id, and one whose receipt was pruned, are 404", async () => {
    expect((await story("Ev0NEVERSEEN")).status).toBe(404);
    const retention = recordSettings(env).receiptRetentionMs;
    const team = newWorkspace();
    const id = await mention(team);
    expect((await story(id)).status).toBe(200);
    // Two generations later the receipt's table is dropped by the alarm; the look-up no longer finds it.
    const later = Date.now() + 2 * retention + 3_600_000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    await runDurableObjectAlarm(shardStub(team));
    expect((await story(id)).status).toBe(404);
  });
});

describe("searching deliveries (GET /admin/api/events)", () => {
  it("finds them by channel and by user, newest first, a page at a time", async () => {
    const team = newWorkspace();
    const first = await mention(team, appMention({ channel: "C0SEARCH1", user: "U0SEARCH1" }));
    const second = await mention(team, appMention({ channel: "C0SEARCH1", user: "U0SEARCH2" }));
    const other = await mention(team, appMention({ channel: "C0SEARCH2", user: "U0SEARCH1" }));
    const ids = (page: Page) => page.events.map((event) => event.id);
    expect(ids(await list(`workspace=${team}&channel=C0SEARCH1`))).toEqual([second, first]);
    expect(ids(await list(`channel=C0SEARCH1`))).toEqual([second, first]);
    expect(ids(await list(`workspace=${team}&user=U0SEARCH1`))).toEqual([other, first]);
    expect(ids(await list(`workspace=${team}&channel=C0SEARCH2&user=U0SEARCH2`))).toEqual([]);
    expect(ids(await list(`workspace=${team}&listener=app_mention&user=U0SEARCH1`))).toEqual([other, first]);
    expect(ids(await list(`workspace=${team}&listener=no-such-listener`))).toEqual([]);
    // Paging: one at a time, the same order, until the cursor runs out.
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page = await list(`workspace=${team}&limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...ids(page));
      cursor = page.cursor;
    }
    expect(seen).toEqual([other, second, first]);
    expect((await adminGet("/admin/api/events?status=lost")).status).toBe(400);
    expect((await adminGet("/admin/api/events?cursor=garbage")).status).toBe(400);
    expect((await adminGet("/admin/api/events", null)).status).toBe(401);
  });

  it("by status: a parked delivery is found as parked, a delivered one as done", async () => {
    const team = newWorkspace();
    slack().fail({ method: "chat.postMessage" }, { error: "channel_not_found" }, 1);
    const parked = await mention(team);
    await vi.waitFor(async () => expect(await shardStub(team).listParked()).toHaveLength(1));
    const delivered = await mention(team);
    await vi.waitFor(async () => expect((await shardStub(team).stats()).outbox.pending).toBe(0));
    const ids = async (status: string) => (await list(`workspace=${team}&status=${status}`)).events.map((event) => event.id);
    expect(await ids("parked")).toEqual([parked]);
    expect(await ids("done")).toEqual([delivered]);
    expect(await ids("settled")).toEqual([]);
  });
});
