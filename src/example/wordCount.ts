/** Stands in for the slow part of a real bot (an LLM, a search, a ticket system): a word count of the text. */
export function wordCountReply(text: string): string {
  const words = text
    .replace(/<@[A-Z0-9]+>/g, "")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return `You said ${words.length} word${words.length === 1 ? "" : "s"}: "${words.join(" ")}".`;
}
