/** A finished message's content for chat.update: markdown_text, or with blocks the text as their first (markdown) block (markdown_text goes without blocks). */
export const finishedContent = (text: string, blocks?: readonly unknown[]) =>
  blocks ? { text, blocks: [{ type: "markdown", text }, ...blocks] } : { markdown_text: text };
