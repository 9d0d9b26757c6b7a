import { WAIT_ENDED_TEXT, waitClickOf, waitNotYoursText } from "../../app/waits";
import type { Inbound } from "../../inbound/types";
import { log } from "../../platform/log";
import type { Outbox } from "../../recording/outbox";
import { newRow } from "../../recording/outboxRows";
import type { WaitStore } from "./waitStore";

/**
 * Clicks on durable waits' questions, in the turn of the click's own ingest (so the answer commits
 * with its receipt): a click on an open wait of this shard, from that wait's own question, answers
 * it and makes its suspended run due at once — when the clicking user is one of its answerers
 * (`from`); any other — the wait answered already, timed out, its run stopped or parked, a click
 * naming a wait it was never shown, or by someone the question is not for — answers nothing, and
 * the clicking user is told so in an ephemeral message (whose question it is, when it is open).
 */
export class ClickAnswers {
  constructor(
    private readonly waits: WaitStore,
    private readonly outbox: Outbox,
    private readonly shard: string,
    private readonly wakeAt: (at: number) => void,
  ) {}

  /** A delivery was recorded (accepted): a wait's click answers its wait, or is told it ended. */
  recorded(inbound: Inbound, now: number): void {
    const click = waitClickOf(inbound);
    if (!click) return;
    const answer = { actionId: click.actionId, value: click.value, user: click.user, at: now };
    const verdict = this.waits.answer(click.waitId, click, answer, now);
    const logged = { event_id: inbound.dedupeKey, shard: this.shard, dedupeKey: inbound.dedupeKey, wait: click.waitId };
    if (verdict.answered) {
      // A run in an attempt now is not woken here: its settle sees the answer (delivery/postponements.ts).
      if (this.waits.wake(verdict.runKey, now)) this.wakeAt(now);
      log("info", "wait answered", { ...logged, key: verdict.runKey });
      return;
    }
    const notYours = verdict.why === "not_yours";
    // Someone else's click leaves the wait open for its answerers (`from`): only the clicker is told.
    const said = notYours
      ? "a click by someone the wait is not for answered nothing"
      : "a click on a wait that is not open answered nothing";
    log("info", said, { ...logged, why: verdict.why, user: click.user });
    if (!click.user || !click.channel) return;
    const thread = click.threadTs ? { thread_ts: click.threadTs } : {};
    const text = notYours ? waitNotYoursText(verdict.answerers) : WAIT_ENDED_TEXT;
    const told = {
      type: "slack.api" as const,
      method: "chat.postEphemeral",
      body: { channel: click.channel, user: click.user, ...thread, text },
    };
    const name = `${inbound.dedupeKey}:wait:${notYours ? "not_yours" : "ended"}`;
    this.outbox.enqueue([newRow(name, inbound.workspace, told)], now, null);
    this.wakeAt(now);
  }

  /** The alarm's part: waits a day past their deadline are deleted. */
  prune(now: number): void {
    this.waits.prune(now);
  }
}
