import type { OpenLoopProgress, Sample } from "./openLoop";

/** What the load process is asked to do: one open-loop run of signed app_mention events. */
export interface LoadJob {
  url: string;
  rate: number;
  durationMs: number;
  workspaces: string[];
  secret: string;
  /** Makes this run's channels (and so its threads) distinct from every other run's. */
  runId: string;
  /** Channels the events are spread over (round-robin), 8 when omitted. */
  channels?: number;
  timeoutMs: number;
  /** When the first event is due (ms since the epoch, clock.ts): a run that continues another without a gap (npm run spread). Now when omitted. */
  startAt?: number;
}

export interface LoadResult {
  samples: Sample[];
  /** CPU the load process itself used while sending, as a share of one core: near 1 means the generator was the limit. */
  generatorCpu: number;
}

export type LoadMessage =
  | { id: number; kind: "progress"; progress: OpenLoopProgress }
  | { id: number; kind: "done"; result: LoadResult }
  | { id: number; kind: "failed"; error: string };
