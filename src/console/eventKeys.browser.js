// From a parked row's key to its event. An outbox key is `{dedupe key}:{effect name}`
// (app/contract/outboxKey.ts), and both halves may hold colons (`view_closed:V0123`,
// `run:event:app_mention`); an effect keyed by its message is `{team}:{channel}:{ts}:{name}`,
// whose story is the receipt `fact:{key}`. So the page tries the few ids the key can start with.
import { api, NotFound } from "./api.browser.js";

/** A message's fact key starts the outbox key: team, channel, then the message's ts. */
const FACT = /^[TE][A-Z0-9]+:[CGD][A-Z0-9]+:\d+\.\d+:/;
const MOST = 6;

/** The ids whose story may hold `key`, likeliest first: its message's fact receipt, then each prefix ending at a colon, shortest first. */
export function eventIdsOf(key) {
  const ids = FACT.test(key) ? [`fact:${key}`] : [];
  for (let at = key.indexOf(":"); at > 0 && ids.length < MOST; at = key.indexOf(":", at + 1)) ids.push(key.slice(0, at));
  return ids;
}

/**
 * The story of the delivery whose effect `key` is, looked up in `workspace`'s shards: the first
 * whose effects list the key, else the first found at all (an effect planned later, such as an
 * error handler's); null when none is found.
 */
export async function storyOfEffect(key, workspace) {
  let first = null;
  for (const id of eventIdsOf(key)) {
    try {
      const story = await api(`/admin/api/events/${encodeURIComponent(id)}?workspace=${encodeURIComponent(workspace)}`);
      if (story.effects.some((effect) => effect.key === key)) return story;
      first ??= story;
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }
  return first;
}
