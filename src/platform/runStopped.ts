import { DeliveryError } from "./deliveryErrors";

/** The reason a stopped run's row is kept with (`agent_session_stopped`): its `last_error`, as a stopped run. */
export const STOPPED_BY_USER = "stopped by user";

/** The reason a turn's rows are parked with when a newer message of its conversation interrupts it (`turns: "interrupt"`). */
export const INTERRUPTED = "interrupted by a newer message";

/**
 * The user stopped the run's conversation (agent_session_stopped), or a newer message interrupted
 * its turn (`reason`): the run ends as stopped at once — an outcome, not a failure: never retried,
 * parked, alerted on or logged as an error. A user's stop carries `shownStreams`, the streams
 * Slack showed streaming at the click and stopped (`streaming_message_ts`).
 */
export class RunStopped extends DeliveryError {
  override name = "RunStopped";
  readonly disposition = "stop";
  constructor(
    reason: string = STOPPED_BY_USER,
    readonly shownStreams: readonly string[] = [],
    /** False when the stop met the attempt before it began: it is not counted (platform/settlement.ts). */
    readonly began = true,
  ) {
    super(reason);
  }
}

/** What a run whose stop `signal` was aborted throws: the stop it was aborted with (its reason), else a user's stop. */
export function stoppedBy(signal: AbortSignal | undefined): RunStopped {
  return signal?.reason instanceof RunStopped ? signal.reason : new RunStopped();
}
