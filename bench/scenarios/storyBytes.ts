import { ADMIN_TOKEN, type Subject } from "../subjects";

type Story = {
  channel: string | null;
  user: string | null;
  thread: string | null;
  effects: Array<{ key: string }>;
  payload: unknown;
};

const utf8 = (text: string | null) => (text === null ? 0 : new TextEncoder().encode(text).length);

async function adminJson<T>(subject: Subject, path: string): Promise<T | null> {
  const response = await fetch(new URL(path, subject.runtime.url), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return response.ok ? ((await response.json()) as T) : null;
}

/**
 * The bytes an event's story adds to its receipt (docs/design.md "An event's story"): the newest
 * delivery of `workspace`, read back through the look-up API, measured as its receipt stores it —
 * channel, user, thread, the effect keys' JSON and the payload's (as EVENT_PAYLOADS kept it).
 * Null when the subject keeps no story (no look-up API).
 */
export async function storyBytes(subject: Subject, workspace: string): Promise<number | null> {
  const page = await adminJson<{ events: Array<{ id: string }> }>(subject, `/admin/api/events?workspace=${workspace}&limit=1`);
  const id = page?.events[0]?.id;
  if (id === undefined) return null;
  const story = await adminJson<Story>(subject, `/admin/api/events/${encodeURIComponent(id)}?workspace=${workspace}`);
  if (story === null) return null;
  const effects = JSON.stringify(story.effects.map((effect) => effect.key));
  const payload = story.payload === null ? null : JSON.stringify(story.payload);
  return utf8(story.channel) + utf8(story.user) + utf8(story.thread) + utf8(effects) + utf8(payload);
}
