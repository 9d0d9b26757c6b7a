import { effectsByThread } from "../effects/threadEffects";
import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import { type LatencySummary, summarize } from "../report/latency";
import type { TrafficEvent } from "./slackTraffic";
import type { Outage } from "./verifyDelivery";

/** An acked plain event and its reply: from the ack Slack got to the first post the fake performed in its thread. */
interface Replied {
  eventId: string;
  ackAt: number;
  postAt: number;
}

/** What a SIGKILL cost the replies it caught: events acked before it whose reply came after it. */
export interface KillReplies {
  atS: number;
  downS: number | null;
  caught: number;
  /** Of those, the replies Slack's outage held too (posted after it began): their delay is the outage's as much as the kill's. */
  heldByOutage: number;
  /** The slowest of the others, from its ack to its post, and whose. */
  slowestS: number | null;
  slowestEventId: string | null;
}

export interface ReplyDelays {
  /** Every acked plain event's reply delay (ms). */
  all: LatencySummary;
  kills: KillReplies[];
  /** The slowest reply a kill caught that the outage did not hold, in seconds (the cost of a deploy-like reset). */
  slowestAfterKillS: number | null;
  /** The slowest reply a kill caught, the outage's included. */
  slowestCaughtS: number | null;
}

/** Each acked plain event's ack time (its 2xx attempt) and first reply post (the fake's clock: the same machine's). */
export function repliesOf(events: readonly TrafficEvent[], calls: readonly ServedCall[]): Replied[] {
  const threads = effectsByThread(calls);
  const replied: Replied[] = [];
  for (const event of events) {
    const ack = event.result?.attempts.find((attempt) => attempt.status !== undefined && !attempt.failure);
    const post = threads.get(event.thread)?.posts[0];
    if (ack && post) replied.push({ eventId: event.eventId, ackAt: ack.settledAt, postAt: post.receivedAt });
  }
  return replied;
}

/** Whether Slack's outage held a reply: acked before Slack recovered, posted after it went down. */
const heldIn = (outage: { startsAt: number; endsAt: number }) => (r: Replied) =>
  r.ackAt < outage.endsAt && r.postAt >= outage.startsAt;

/** The post times of the replies the outage held. */
export function heldBy(replied: readonly Replied[], outage: { startsAt: number; endsAt: number }): number[] {
  return replied.filter(heldIn(outage)).map((r) => r.postAt);
}

const slowestOf = (replies: readonly Replied[]) =>
  replies.reduce<Replied | null>((top, r) => (top && top.postAt - top.ackAt >= r.postAt - r.ackAt ? top : r), null);

/** Per kill, the replies it caught and the slowest of those the outage did not hold too. */
export function replyDelays(
  replied: readonly Replied[],
  outages: readonly Outage[],
  runStartedAt: number,
  outage: { startsAt: number; endsAt: number },
): ReplyDelays {
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const held = heldIn(outage);
  const caughtBy = (kill: Outage) => replied.filter((r) => r.ackAt <= kill.killedAt && r.postAt > kill.killedAt);
  const kills = outages.map((kill): KillReplies => {
    const caught = caughtBy(kill);
    const slowest = slowestOf(caught.filter((r) => !held(r)));
    return {
      atS: seconds(kill.killedAt - runStartedAt),
      downS: kill.readyAt ? seconds(kill.readyAt - kill.killedAt) : null,
      caught: caught.length,
      heldByOutage: caught.filter(held).length,
      slowestS: slowest ? seconds(slowest.postAt - slowest.ackAt) : null,
      slowestEventId: slowest?.eventId ?? null,
    };
  });
  const clean = kills.map((kill) => kill.slowestS).filter((s): s is number => s !== null);
  const anyCaught = slowestOf(outages.flatMap(caughtBy));
  return {
    all: summarize(replied.map((r) => r.postAt - r.ackAt)),
    kills,
    slowestAfterKillS: clean.length ? Math.max(...clean) : null,
    slowestCaughtS: anyCaught ? seconds(anyCaught.postAt - anyCaught.ackAt) : null,
  };
}
