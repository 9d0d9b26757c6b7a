import type { FailureNotices } from "../contract";

/** `failureNotices` of the app or a listener: `true` tells every run, `false` none; or the words (and which runs). */
export type FailureNoticesOption = boolean | FailureNotices;

const asNotices = (option: FailureNoticesOption | undefined): FailureNotices =>
  option === undefined ? {} : typeof option === "boolean" ? { runs: option ? "all" : "none" } : option;

/**
 * A listener's failure notices (`SlackApp.failureNotices`): its own option over the app's, field by
 * field. A listener that answers as an agent (its `agent` option) has agents' runs; for the others
 * left to `"agents"` (the default) the coordinator decides (delivery/failureNotices.ts).
 */
export function failureNoticesOf(
  app: FailureNoticesOption | undefined,
  listener: { failureNotices?: FailureNoticesOption; agent?: boolean } = {},
): FailureNotices {
  const notices = { ...asNotices(app), ...asNotices(listener.failureNotices) };
  return listener.agent && (notices.runs ?? "agents") === "agents" ? { ...notices, runs: "all" } : notices;
}
