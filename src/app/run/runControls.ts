import type { Inbound } from "../../inbound/types";
import { HandlerMisuse, RunSuspended, stoppedBy } from "../../platform/errors";
import type { SlackWebClient } from "../../slack/client";
import type { RunControls } from "../contract";
import { RunStatus } from "./runStatus";

/** A run handed no controls (called outside a shard): never stopped, and setStatus refused. */
const UNCONTROLLED: RunControls = {
  signal: new AbortController().signal,
  setStatus: () => Promise.reject(new HandlerMisuse("setStatus() needs a run performed by a shard")),
};

/** The controls of a run's arguments. */
export const runControls = (tools: { controls?: RunControls }): RunControls => tools.controls ?? UNCONTROLLED;

/**
 * Performs a run with its controls: its session marked while it works, its status kept alive and
 * then cleared — also while it is suspended, its session then `suspended` when it waits for a
 * person and `active` when it sleeps. Stopped (`stopped` aborted), it ends as RunStopped whatever it did — its row
 * a stopped run ("stopped by user"), never parked — and sends nothing more.
 */
export async function withRunControls(
  inbound: Inbound,
  client: SlackWebClient,
  options: { stopped?: AbortSignal; agentSessions: boolean },
  perform: (controls: RunControls) => Promise<void>,
): Promise<void> {
  const signal = options.stopped ?? new AbortController().signal;
  // The stop cancels a keep-alive the moment it comes; RunStatus listens for it only while one runs.
  const status = new RunStatus(client, inbound, options.agentSessions, signal);
  try {
    await status.begin();
    await perform({ signal, setStatus: status.set });
    if (signal.aborted) throw stoppedBy(signal);
    await status.finish();
  } catch (error) {
    if (signal.aborted) throw stoppedBy(signal);
    // Suspended (a sleep, a wait for a person): its thread shows no work going on meanwhile.
    if (error instanceof RunSuspended) await status.suspend(error.forPerson);
    throw error;
  } finally {
    status.cancelKeepAlive();
  }
}
