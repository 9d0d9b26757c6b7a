import type { Block, KnownBlock } from "@slack/types";
import type { WaitAnswerers } from "./waitAnswerers";

/** One of a question's buttons. */
export interface WaitButton {
  text: string;
  /** What the answer carries as `value`. */
  value: string;
  /** The button's `action_id` (the wait's name unless given). */
  action_id?: string;
  style?: "primary" | "danger";
}

/** What a durable wait asks: its text, and its buttons or blocks of your own. */
export interface WaitQuestion {
  /** The question, and the message's notification text. */
  text: string;
  /** Buttons under the text; or give `blocks` (their `actions` blocks' buttons are the answers). */
  buttons?: WaitButton[];
  blocks?: (KnownBlock | Block)[];
  /** How long the question waits for a click (ms) before the run goes on with `timedOut`. */
  timeoutMs: number;
  /**
   * Whose click answers it: `"asker"` (default: the user whose message or action started the run),
   * a list of user ids, or `"anyone"`. Anyone else's click is told whose question it is, ephemerally,
   * and the question stays open.
   */
  from?: WaitAnswerers;
}

/**
 * The question's blocks, each `actions` block carrying the wait's block_id (a second one
 * `:{n}` more, block_ids being unique in a message): that id is what a click answers.
 */
export function questionBlocks(name: string, question: WaitQuestion, blockId: string): (KnownBlock | Block)[] {
  const blocks: (KnownBlock | Block)[] = question.blocks ?? [
    { type: "section", text: { type: "mrkdwn", text: question.text } },
    {
      type: "actions",
      elements: (question.buttons ?? []).map((button) => ({
        type: "button" as const,
        text: { type: "plain_text" as const, text: button.text },
        action_id: button.action_id ?? name,
        value: button.value,
        ...(button.style ? { style: button.style } : {}),
      })),
    },
  ];
  let n = 0;
  return blocks.map((block) => {
    if (block.type !== "actions") return block;
    const id = n === 0 ? blockId : `${blockId}:${n}`;
    n++;
    return { ...block, block_id: id };
  });
}
