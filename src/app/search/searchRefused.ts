import { DeliveryError } from "../../platform/errors";

/**
 * `search()` refused: the run has no `action_token` to pass (`no_action_token`: a command, a click,
 * a run not started by a person's message), or Slack answered the search with a refusal no retry
 * changes — `invalid_action_token` (the token expired or is not this message's), `missing_scope`,
 * `feature_not_enabled`, … (the method's errors: docs.slack.dev/reference/methods/assistant.search.context).
 * It reaches the run's code, which may catch it and answer without the search; uncaught, the run
 * is parked at once (`park`), never retried: a later attempt would be refused the same way.
 */
export class SearchRefused extends DeliveryError {
  override name = "SearchRefused";
  readonly disposition = "park";
  constructor(
    /** `no_action_token`, or Slack's error code. */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
