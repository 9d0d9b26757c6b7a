import type { WaitRecord } from "../app/contract";
import { isStreamCheckpoint, type StreamRecord } from "../app/streams";
import { sleepOfStep } from "../app/waits";
import type { MessageStory, WaitingStory } from "../rpc/effectMessages";
import type { EffectStory, EventStory } from "../rpc/eventStories";

/** One of a run's waits as its story reads it. */
export interface RunWait {
  name: string;
  channel: string;
  /** Its question's message, once posted. */
  messageTs: string | null;
  deadline: number;
  state: WaitRecord["state"];
  /** Who may answer it; null for anyone. */
  answerers: string[] | null;
  openedAt: number;
}

/** A run's waits, oldest first, by its key: the waits part's store reads them (src/parts/waits/). */
export type WaitsOfRun = (runKey: string) => RunWait[];

/**
 * What each effect's run waits for and the messages it posted (docs/design.md "An event's story"),
 * read from what the run stores anyway: its checkpoints (`outbox.steps`, by the row's key: streams'
 * messages, steps' posts, sleeps' wake times) and its waits (by run key: the `(run_key, name)`
 * index). A wait outlives its row by a day (WAIT_KEEP_MS), so a settled run's question still shows.
 * Reads only; one delivery's story, never the list.
 */
export function withEffectMessages(
  waits: WaitsOfRun,
  story: EventStory,
  /** A row's checkpoints (`outbox.steps`) by its key, wherever the row is kept; undefined once it is gone. */
  stepsOf: (key: string) => string | undefined,
): EventStory {
  return {
    ...story,
    effects: story.effects.map((effect) => ({ ...effect, ...effectMessages(stepsOf(effect.key), waits, effect, story.channel) })),
  };
}

function effectMessages(
  stored: string | undefined,
  waits: WaitsOfRun,
  effect: EffectStory,
  channel: string | null,
): Required<Pick<EffectStory, "waiting" | "messages">> {
  const steps = stored === undefined ? {} : (JSON.parse(stored) as Record<string, unknown>);
  const asked = waits(effect.key);
  return { waiting: waitingOf(effect, asked, steps), messages: messagesOf(steps, asked, channel) };
}

/**
 * A suspended run's row is pending, unleased and due exactly when what it waits for ends: its
 * attempt's postpone wrote that time (delivery/deliverClaimed.ts). Due at any other time (a click
 * woke it, a retry), it waits for nothing of its own.
 */
function waitingOf(effect: EffectStory, asked: RunWait[], steps: Record<string, unknown>): WaitingStory | null {
  const due = effect.nextAttemptAt;
  if (effect.status !== "pending" || effect.leased || due === null) return null;
  const wait = asked.find((one) => one.state === "open" && one.deadline === due);
  if (wait) {
    const { name, channel, messageTs: ts, answerers: from, openedAt: since } = wait;
    return { kind: "action", name, deadline: due, channel, ts, from, since };
  }
  for (const [step, wakeAt] of Object.entries(steps)) {
    const name = sleepOfStep(step);
    if (name !== null && wakeAt === due) return { kind: "timer", name, deadline: due };
  }
  return null;
}

/**
 * The run's messages in checkpoint order: each stream's, and each step whose result names a
 * message (`{ channel, ts }`: a say(), a chat.postMessage) — the wait's own question step shown as
 * its question — then any question no checkpoint holds (the row is gone, or never recorded it).
 */
function messagesOf(steps: Record<string, unknown>, asked: RunWait[], channel: string | null): MessageStory[] {
  const questions = new Map<string, MessageStory>();
  for (const wait of asked) {
    if (wait.messageTs !== null)
      questions.set(wait.messageTs, { kind: "question", name: wait.name, channel: wait.channel, ts: wait.messageTs });
  }
  const messages: MessageStory[] = [];
  for (const [name, result] of Object.entries(steps)) {
    if (isStreamCheckpoint(name)) messages.push(...streamed(name, result as StreamRecord, channel));
    else if (isMessage(result)) {
      const question = questions.get(result.ts);
      questions.delete(result.ts);
      messages.push(question ?? { kind: "post", name, channel: result.channel, ts: result.ts });
    }
  }
  return [...messages, ...questions.values()];
}

/** A stream checkpoint's messages (app/streams/record/checkpoint.ts): each one's ts and state. */
function streamed(name: string, record: StreamRecord, channel: string | null): MessageStory[] {
  return record.messages.map((message) => ({
    kind: "stream",
    name,
    channel: record.channel ?? channel,
    ts: message.ts,
    state: message.open ? "open" : message.sealed ? "sealed" : "stopped",
    ...(message.posted ? { posted: true } : {}),
    ...(message.found ? { found: true } : {}),
  }));
}

const isMessage = (value: unknown): value is { channel: string; ts: string } =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { ts?: unknown }).ts === "string" &&
  typeof (value as { channel?: unknown }).channel === "string";
