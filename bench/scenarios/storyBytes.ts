import { ADMIN_TOKEN, type Subject } from "../subjects";

type Story = {
  channel: string | null;
  user: string | null;
  thread: string | null;
  effects: Array<{ key: string; history: unknown[] }>;
  payload: unknown;
};

const utf8 = (text: string | null) => (text === null ? 0 : new TextEncoder().encode(text).length);

async function adminJson<T>(subject: Subject, path: string): Promise<T | null> {
  const response = await fetch(new URL(path, subject.runtime.url), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return response.ok ? ((await response.json()) as T) : null;
}

/**
 * The bytes an event's story keeps (docs/design.md "An event's story"): the newest delivery of
 * `workspace`, read back through the look-up API, measured as its rows store it — in its receipt,
 * channel, user, thread, the effect keys' JSON and the payload's (as EVENT_PAYLOADS kept it); on
 * its done rows, each effect's attempts (`outbox.story`). Its run's checkpoints are the run's own,
 * kept before this too, and not counted. Null when the subject keeps no story (no look-up API).
 */
export async function storyBytes(subject: Subject, workspace: string): Promise<number | null> {
  const page = await adminJson<{ events: Array<{ id: string }> }>(subject, `/admin/api/events?workspace=${workspace}&limit=1`);
  const id = page?.events[0]?.id;
  if (id === undefined) return null;
  const story = await adminJson<Story>(subject, `/admin/api/events/${encodeURIComponent(id)}?workspace=${workspace}`);
  if (story === null) return null;
  const effects = JSON.stringify(story.effects.map((effect) => effect.key));
  const payload = story.payload === null ? null : JSON.stringify(story.payload);
  const attempts = story.effects.reduce(
    (sum, effect) => sum + (effect.history.length > 0 ? utf8(JSON.stringify(effect.history)) : 0),
    0,
  );
  return utf8(story.channel) + utf8(story.user) + utf8(story.thread) + utf8(effects) + utf8(payload) + attempts;
}
