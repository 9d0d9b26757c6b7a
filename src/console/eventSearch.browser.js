// The search box: what was typed, as a route — an id opens its event page, a channel, a user or a
// workspace lists the deliveries that match (several words narrow together: "T0001 C0SUPPORT",
// "C0SUPPORT status:parked").

const PATTERNS = [
  // Slack's own mentions pasted in (<#C0123|general>, <@U0123>) count as the bare id.
  ["channel", /^(?:channel:|#|<#)?([CGD][A-Z0-9]{2,})(?:\|[^>]*)?>?$/],
  ["user", /^(?:user:|@|<@)?([UW][A-Z0-9]{2,})(?:\|[^>]*)?>?$/],
  ["workspace", /^(?:workspace:)?([TE][A-Z0-9]{2,})$/],
  // The list's other filters, named: status:parked, listener:app_mention, since:2026-12-06T10:30Z.
  ...["status", "listener", "since", "until"].map((name) => [name, new RegExp(`^${name}:(\\S+)$`)]),
];

/** `text` as a hash route: `#/events/{id}` (an event_id, a trigger_id, any other key) or `#/events?…`; null when empty. */
export function searchRoute(text) {
  const filter = new URLSearchParams();
  let id = null;
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const found = PATTERNS.map(([name, pattern]) => [name, pattern.exec(word)]).find(([, match]) => match);
    if (found) filter.set(found[0], found[1][1]);
    else id = word;
  }
  if (id !== null) return eventHref(id, filter.get("workspace"));
  return [...filter.keys()].length === 0 ? null : `#/events?${filter}`;
}

/** An event page's route; `workspace` narrows the look-up to that workspace's shards. */
export const eventHref = (id, workspace) =>
  `#/events/${encodeURIComponent(id)}${workspace ? `?workspace=${encodeURIComponent(workspace)}` : ""}`;
