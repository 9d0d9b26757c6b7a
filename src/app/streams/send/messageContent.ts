/** What the calls of a reply's messages carry, by kind of call. */

type Json = Record<string, unknown>;

/** A streaming call's content: `markdown_text`, or the chunks with the text as a leading `markdown_text` chunk. */
export function streamedContent(text: string, chunks: readonly unknown[] | undefined): Json {
  if (!chunks || chunks.length === 0) return text === "" ? {} : { markdown_text: text };
  return { chunks: text === "" ? [...chunks] : [{ type: "markdown_text", text }, ...chunks] };
}

/** A posted message's text as markdown; an empty one shows an ellipsis until its text comes. */
export const postedContent = (text: string) => ({ markdown_text: text === "" ? "…" : text });

/** A closed message's content for chat.update: markdown_text, or with blocks the text as their first (markdown) block (markdown_text goes without blocks). */
export const closedContent = (text: string, blocks?: readonly unknown[]) =>
  blocks ? { text, blocks: [{ type: "markdown", text }, ...blocks] } : { markdown_text: text };
