/**
 * The bench's deterministic streamed answer, shared by its app (bench/workers/coordinatorStreams.ts)
 * and the harness that checks it: "count to N every P" asks for the numbers 1 to N, one per
 * append, P ms apart; the complete answer is exactly "1 2 … N".
 */
export const COUNT_REQUEST = /count to (\d+)(?: every (\d+))?/;

export function countRequest(n: number, pauseMs: number): string {
  return `<@U0000BOT> count to ${n} every ${pauseMs}`;
}

export function countedTo(n: number): string {
  return Array.from({ length: n }, (_, i) => String(i + 1)).join(" ");
}

/** "answer after MS": the bench app's plain answer, its placeholder then its update with a durable sleep of MS between them. */
export const SLEEP_REQUEST = /answer after (\d+)/;

export function sleepRequest(ms: number): string {
  return `<@U0000BOT> answer after ${ms}`;
}
