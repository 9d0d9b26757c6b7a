/**
 * Late events: an Events API event Slack delivers long after it happened (its backlog replayed
 * after an incident, a retry past the receipt window, which no receipt dedupes any more) is acked
 * and logged, not answered hours late — unless its listener says so (docs/reference/app-api.md#late-events).
 */

/**
 * The app's default maximum age of an event a listener answers: an hour. Slack's own retries come
 * within about 5 minutes of the event, so anything older was held up on Slack's side; an hour still
 * answers a short incident's backlog, and is far inside RECEIPT_RETENTION_HOURS (24), so a retry
 * older than its receipt is never answered a second time.
 */
export const DEFAULT_MAX_EVENT_AGE_MS = 3_600_000;

/** `maxEventAgeMs` as given to `new App` or a listener: a positive number of ms (`Infinity`: any age); throws otherwise. */
export function checkedMaxEventAge(value: number | undefined, where: string): number | undefined {
  if (value === undefined || (typeof value === "number" && value > 0)) return value;
  throw new TypeError(`${where}: maxEventAgeMs must be a positive number of ms (Infinity answers events of any age)`);
}

/** Whether an event of `ageMs` (undefined: unknown, or not an event) is too old for a listener allowing `maxEventAgeMs`. */
export function isLate(ageMs: number | undefined, maxEventAgeMs: number): boolean {
  return ageMs !== undefined && ageMs > maxEventAgeMs;
}
