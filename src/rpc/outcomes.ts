/**
 * One request an attempt made to a destination, and whether it worked: what alerts count
 * consecutive failures of (docs/guides/operations.md "Alerts"). A destination is the relay backend, or one Web API
 * method (or `response_url`) in one workspace. Never carries a token, a URL's secret part or a payload.
 */
export interface CallOutcome {
  /** Stable id of the destination: `relay`, or `api:{workspace}:{method}`. */
  destination: string;
  /** How an alert names it: "the relay backend https://backend.example/slack/events", "chat.postMessage in T0123". */
  label: string;
  ok: boolean;
  /** What went wrong, as the row's error says it. */
  error?: string;
}

/** Consecutive outcomes of one destination, in the order they happened (successes or failures). */
export interface DestinationRun {
  destination: string;
  label: string;
  ok: boolean;
  /** How many in a row. */
  n: number;
  /** The newest failure's error, and the newest row key (for failures). */
  error?: string;
  key?: string;
}

/** What one shard tells the watch: outcomes per destination in order, and effects it parked. */
export interface DeliveryReport {
  shard: string;
  runs: DestinationRun[];
  parked?: { count: number; reason: string; key: string };
}

/** Reports outcomes; the shard adds the row's key. */
export type ObserveCall = (outcome: CallOutcome) => void;

/** A Web API method (or `response_url`) of one workspace, as a destination. */
export function webApiDestination(workspace: string, method: string, ok: boolean, error?: string): CallOutcome {
  return { destination: `api:${workspace}:${method}`, label: `${method} in ${workspace}`, ok, error };
}
