/**
 * A click on a button of a message the app posted — a durable wait's question above all — as Slack
 * sends it: the button's `action_id`, `value` and its block's `block_id` (which names the wait),
 * the message's `ts`, channel and thread. FakeSlack's `question()` finds the message;
 * SlackSimulator's `click()` signs the click.
 */
import { blockActions, messageTs } from "./deliveries";

/** A message with buttons as the app posted it: where it is and its blocks (FakeSlack's `question()`). */
export interface PostedQuestion {
  channel: string;
  ts: string;
  thread_ts?: string;
  text?: string;
  blocks?: unknown;
}

/** Which button: its `value`, or its `action_id` (a string tries the value first), or both. */
export type ButtonChoice = string | { action_id?: string; value?: string };

/** Who clicks (`U0000USER`, the templates' user and so the asker, unless told); other payload fields to replace. */
export interface ClickOptions {
  user?: string;
  overrides?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

interface Button {
  block_id: string;
  element: Json;
}

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null;

/** Where to look for a question: a channel, a thread of it; anywhere when neither is told. */
export interface QuestionPlace {
  channel?: string;
  thread_ts?: string;
}

const POLL_MS = 10;

/** A message ts as a number pair, to order messages of different channels: seconds, then Slack's counter. */
const ordered = (a: PostedQuestion, b: PostedQuestion) => {
  const [as, ac] = a.ts.split(".").map(Number);
  const [bs, bc] = b.ts.split(".").map(Number);
  return (as ?? 0) - (bs ?? 0) || (ac ?? 0) - (bc ?? 0);
};

/**
 * Resolves with the newest of `posted()` (every message the app posted, with its channel) that has
 * buttons and lies in `place`, polling until one does; rejects after `timeoutMs` (real time).
 */
export async function waitForQuestion(
  posted: () => PostedQuestion[],
  place: QuestionPlace,
  timeoutMs: number,
): Promise<PostedQuestion> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const [newest] = posted()
      .filter((message) => place.channel === undefined || message.channel === place.channel)
      .filter((message) => place.thread_ts === undefined || [message.ts, message.thread_ts].includes(place.thread_ts))
      .filter((message) => buttonsOf(message.blocks).length > 0)
      .sort((a, b) => ordered(b, a));
    if (newest) return newest;
    if (performance.now() > until)
      throw new Error(
        `FakeSlack: no message with buttons ${JSON.stringify(place)} within ${timeoutMs} ms (messages posted: ${posted().length})`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The buttons of a message's `actions` blocks, each with its block's id. */
export function buttonsOf(blocks: unknown): Button[] {
  if (!Array.isArray(blocks)) return [];
  return blocks
    .filter(isJson)
    .flatMap((block) =>
      block.type === "actions" && Array.isArray(block.elements)
        ? block.elements
            .filter((element): element is Json => isJson(element) && element.type === "button")
            .map((element) => ({ block_id: String(block.block_id ?? ""), element }))
        : [],
    );
}

function chosen(question: PostedQuestion, choice: ButtonChoice): Button {
  const buttons = buttonsOf(question.blocks);
  const wanted = typeof choice === "string" ? undefined : choice;
  const found =
    typeof choice === "string"
      ? (buttons.find(({ element }) => element.value === choice) ?? buttons.find(({ element }) => element.action_id === choice))
      : buttons.find(
          ({ element }) =>
            (wanted?.action_id === undefined || element.action_id === wanted.action_id) &&
            (wanted?.value === undefined || element.value === wanted.value),
        );
  if (found) return found;
  const shown = buttons.map(({ element }) => `${String(element.action_id)}=${String(element.value)}`).join(", ") || "none";
  throw new Error(
    `click: no button ${JSON.stringify(choice)} on message ${question.ts} in ${question.channel} (its buttons: ${shown})`,
  );
}

/** The `block_actions` payload of a click on `choice` of `question`, by `user` of `teamId`. */
export function clickPayload(question: PostedQuestion, choice: ButtonChoice, teamId: string, options: ClickOptions = {}): Json {
  const { block_id, element } = chosen(question, choice);
  const { channel, ts, thread_ts } = question;
  const user = options.user ?? "U0000USER";
  const thread = thread_ts === undefined ? {} : { thread_ts };
  return {
    ...blockActions({ teamId, actionId: String(element.action_id), channel, messageTs: ts }),
    user: { id: user, username: "tester", name: "tester", team_id: teamId },
    container: { type: "message", message_ts: ts, channel_id: channel, is_ephemeral: false, ...thread },
    message: { type: "message", ts, ...thread, text: question.text ?? "", blocks: question.blocks ?? [], bot_id: "B0000FAKE" },
    state: { values: {} },
    actions: [
      {
        type: "button",
        action_id: element.action_id,
        block_id,
        value: element.value,
        ...(element.text === undefined ? {} : { text: element.text }),
        ...(element.style === undefined ? {} : { style: element.style }),
        action_ts: messageTs(),
      },
    ],
    ...options.overrides,
  };
}
