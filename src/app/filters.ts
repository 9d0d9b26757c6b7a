/** Messages posted by bots (ours included): replying to them is how bot loops start. */
export function isFromBot(event: Record<string, unknown>): boolean {
  return typeof event.bot_id === "string" || event.subtype === "bot_message";
}
