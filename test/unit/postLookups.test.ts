import { afterEach, describe, expect, it, vi } from "vitest";
import { PostLookups, SHARED_LOOKUP_MS } from "../../src/parts/posts";
import { Paced, RunStopped } from "../../src/platform/errors";
import type { PostedMessages } from "../../src/slack/postedMessages";

const T0 = 1_800_000_000_000;
const HERE = "T1 C1 ";

/** A lookup the test settles itself: its `since`, its holder, and how to answer it. */
function scripted() {
  const looks: Array<{ since: number; holder: string; answer(pages: PostedMessages): void; fail(error: unknown): void }> = [];
  const look = (since: number, holder: string) =>
    new Promise<PostedMessages>((answer, fail) => {
      looks.push({ since, holder, answer, fail });
    });
  return { looks, look };
}

const pages = (ids: string[]): PostedMessages => ({ byId: new Map(ids.map((id) => [id, { ts: id }])), complete: true });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("PostLookups: one lookup serves the uncertain rows of its conversation", () => {
  afterEach(() => vi.useRealTimers());

  it("rows claimed before a lookup began share it: one read, one answer for all, their turn the conversation's", async () => {
    vi.useFakeTimers({ now: T0, toFake: ["Date"] });
    const lookups = new PostLookups("T1/0");
    const { looks, look } = scripted();
    const first = lookups.find(HERE, { since: T0 - 60_000, claimedAt: T0 }, look);
    const second = lookups.find(HERE, { since: T0 - 50_000, claimedAt: T0 }, look);
    await tick();
    expect(looks.map(({ since, holder }) => ({ since, holder }))).toEqual([{ since: T0 - 60_000, holder: "T1/0 lookup T1 C1 " }]);
    looks[0]!.answer(pages(["a"]));
    expect(await first).toBe(await second);
    // Later, within the window, a row claimed before it began is still served by its pages.
    vi.setSystemTime(T0 + SHARED_LOOKUP_MS - 1);
    await lookups.find(HERE, { since: T0 - 30_000, claimedAt: T0 - 1 }, look);
    expect(looks).toHaveLength(1);
  });

  it("a row claimed after the lookup began is not served by it (its earlier attempt may have posted since): it looks once that one ended", async () => {
    vi.useFakeTimers({ now: T0, toFake: ["Date"] });
    const lookups = new PostLookups("T1/0");
    const { looks, look } = scripted();
    const first = lookups.find(HERE, { since: T0 - 60_000, claimedAt: T0 }, look);
    vi.setSystemTime(T0 + 1);
    const later = lookups.find(HERE, { since: T0 - 60_000, claimedAt: T0 + 1 }, look);
    await tick();
    expect(looks).toHaveLength(1);
    looks[0]!.answer(pages([]));
    await first;
    await tick();
    expect(looks).toHaveLength(2);
    looks[1]!.answer(pages(["posted meanwhile"]));
    expect((await later).byId.has("posted meanwhile")).toBe(true);
  });

  it("a row uncertain since before the lookup's window waits for it, and the next lookup reads from the earliest such row", async () => {
    vi.useFakeTimers({ now: T0, toFake: ["Date"] });
    const lookups = new PostLookups("T1/0");
    const { looks, look } = scripted();
    lookups.find(HERE, { since: T0 - 10_000, claimedAt: T0 }, look);
    const older = lookups.find(HERE, { since: T0 - 40_000, claimedAt: T0 }, look);
    const oldest = lookups.find(HERE, { since: T0 - 90_000, claimedAt: T0 }, look);
    await tick();
    looks[0]!.answer(pages([]));
    await tick();
    expect(looks.map((l) => l.since)).toEqual([T0 - 10_000, T0 - 90_000]);
    looks[1]!.answer(pages(["x"]));
    expect(await older).toBe(await oldest);
  });

  it("Slack's answer (a turn to wait for) is every row's; the stop of the run that looked is its own: the others look again", async () => {
    vi.useFakeTimers({ now: T0, toFake: ["Date"] });
    const lookups = new PostLookups("T1/0");
    const { looks, look } = scripted();
    const asker = { since: T0 - 60_000, claimedAt: T0 };
    const paced = [lookups.find(HERE, asker, look), lookups.find(HERE, asker, look)];
    await tick();
    const turn = new Paced("conversations.history", T0 + 40_000);
    looks[0]!.fail(turn);
    for (const joined of paced) await expect(joined).rejects.toBe(turn);
    expect(looks).toHaveLength(1);
    const stopped = lookups.find(HERE, asker, look);
    const other = lookups.find(HERE, asker, look);
    await tick();
    looks[1]!.fail(new RunStopped());
    await expect(stopped).rejects.toBeInstanceOf(RunStopped);
    await tick();
    expect(looks).toHaveLength(3);
    looks[2]!.answer(pages(["y"]));
    expect((await other).byId.has("y")).toBe(true);
  });
});
