import { channelOf } from "../../inbound/channelOf";
import type { Inbound } from "../../inbound/types";
import { HandlerMisuse, RunWaiting } from "../../platform/errors";
import type { SlackWebClient } from "../../slack/client";
import type { Step, WaitAnswer, WaitLedger, WaitRecord } from "../contract";
import { questionBlocks, type WaitQuestion } from "./questionBlocks";
import { waitAnswerersOf } from "./waitAnswerers";

/** How a durable wait ended: a click (which button, its value, who), or its timeout. */
export type WaitOutcome = ({ timedOut: false } & WaitAnswer & Asked) | ({ timedOut: true } & Asked);

/** The question's message, to update it once answered (`client.chat.update({ channel, ts, … })`). */
interface Asked {
  message: { channel: string; ts: string };
}

/** A run's durable wait for a person. */
export interface DurableWaits {
  /**
   * Posts `question` with its buttons in the delivery's thread and suspends the run until one of
   * them is clicked or `timeoutMs` passes: the attempt ends, holding no lease, isolate or delivery
   * slot (a row and an alarm), and the run goes on from the top — its steps kept — with the click
   * or `{ timedOut: true }`. Only a click on this question's buttons by one of its answerers
   * (`from`: the asker by default) answers it; anyone else's click, or a click after it ended, gets
   * a short ephemeral answer. The stop button cancels it. `name` is unique in the run
   * (step names' letters, digits, `_ . : -`).
   */
  waitForAction(name: string, question: WaitQuestion): Promise<WaitOutcome>;
}

/** `waitForAction` for one run: the wait in the shard's `waits` table, the question posted once (a step). */
export function durableWaits(inbound: Inbound, client: SlackWebClient, step: Step, ledger?: WaitLedger): DurableWaits {
  return {
    async waitForAction(name, question) {
      if (!ledger) throw new HandlerMisuse("waitForAction() needs a run performed by a shard");
      const channel = inbound.conversation?.channel ?? channelOf(inbound);
      if (!channel) throw new HandlerMisuse(`waitForAction("${name}"): this delivery has no channel to ask in`);
      if (!(question.timeoutMs > 0)) throw new HandlerMisuse(`waitForAction("${name}"): timeoutMs must be a positive number`);
      const answerers = waitAnswerersOf(name, question.from, inbound);
      // The deadline is the first attempt's: a retried or resumed run waits no longer than asked.
      const deadline = await step(`wait:${name}:deadline`, () => Date.now() + question.timeoutMs);
      // Opened before its question is posted: no click can come before the wait it answers.
      const wait = ledger.open(name, channel, deadline, answerers);
      const thread = inbound.conversation ? { thread_ts: inbound.conversation.threadTs } : {};
      const asked = await step(`wait:${name}`, async () => {
        const blocks = questionBlocks(name, question, wait.blockId);
        const posted = await client.call<{ ts: string; channel: string }>("chat.postMessage", {
          channel,
          ...thread,
          text: question.text,
          blocks,
        });
        return { channel: posted.channel ?? channel, ts: posted.ts };
      });
      ledger.posted(wait.waitId, asked.ts);
      // Read again: the post's await let clicks in.
      return outcomeOf(name, ledger.open(name, channel, deadline, answerers), ledger, { message: asked });
    },
  };
}

/** What the wait's state says now: the answer, the timeout, or (still open, in time) the run suspended until then. */
function outcomeOf(name: string, wait: WaitRecord, ledger: WaitLedger, asked: Asked): WaitOutcome {
  if (wait.answer && (wait.state === "answered" || wait.state === "closed")) {
    if (wait.state === "answered") ledger.close(wait.waitId);
    return { timedOut: false, ...wait.answer, ...asked };
  }
  if (wait.state === "timed_out") return { timedOut: true, ...asked };
  if (Date.now() < wait.deadline) throw new RunWaiting(name, wait.deadline);
  // Past its deadline: ended now, unless a click answered it in between (then read it again).
  if (ledger.timeOut(wait.waitId)) return { timedOut: true, ...asked };
  return outcomeOf(name, ledger.open(name, "", wait.deadline, null), ledger, asked);
}
