// Each spread workspace's bucket count history (overview `buckets`), under the shards' table:
// "T0123: spread to 4 at 10:42 (busy 83 %) · back to 2 at 11:30 (quiet)".
import { $, el } from "./dom.browser.js";
import { time } from "./format.browser.js";

const percent = (share) => `${Math.round(share * 100)} %`;

/** One change in words: who made it, to what, when it took (or takes) effect. */
function changeText(change) {
  const at = time(change.effectiveAt);
  if (change.reason === "busy") return `spread to ${change.buckets} at ${at} (busy ${percent(change.busy ?? 0)})`;
  if (change.reason === "quiet") return `back to ${change.buckets} at ${at} (quiet)`;
  return `set to ${change.buckets} at ${at} (manual)`;
}

export function renderBucketChanges(workspaces = []) {
  $("buckets-panel").hidden = workspaces.length === 0;
  $("buckets").replaceChildren(
    ...workspaces.map((workspace) => el("li", `${workspace.workspace}: ${workspace.changes.map(changeText).join(" · ")}`)),
  );
}
