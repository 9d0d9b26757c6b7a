/**
 * Real-time search in a run (Slack's Real-time Search API): `search(query, options)` passes the
 * delivery's `action_token` to `assistant.search.context`, checkpointed as a step; refused with
 * SearchRefused when there is no token or Slack refuses it. Its public face; the rest is internal.
 */
export { actionTokenOf } from "./actionToken";
export { realtimeSearch, SEARCH_METHOD } from "./realtimeSearch";
export { SearchRefused } from "./searchRefused";
export type * from "./searchTypes";
