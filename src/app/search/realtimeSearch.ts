import type { Inbound } from "../../inbound/types";
import { SlackApiError } from "../../platform/errors";
import { fmix32, fnv1a32 } from "../../platform/hashing";
import { TOKEN_REJECTIONS } from "../../slack/classifyAnswer";
import type { SlackWebClient } from "../../slack/client";
import type { Step } from "../contract";
import { actionTokenOf } from "./actionToken";
import { SearchRefused } from "./searchRefused";
import type { Search, SearchAnswer, SearchOptions } from "./searchTypes";

/** Slack's Real-time Search method (https://docs.slack.dev/reference/methods/assistant.search.context). */
export const SEARCH_METHOD = "assistant.search.context";

/**
 * A run's `search(query, options)`: `assistant.search.context` with its delivery's `action_token`
 * ("All API calls made using a bot token require an action_token": real-time-search-api
 * #action-token), each search a step — a retried run gets the stored answer back instead of
 * searching again. `step` is the run's own (not the code's guarded one): a failure the outbox
 * retries (a 5xx, a 429, no answer) ends the attempt like any Slack call; a refusal reaches the code.
 */
export function realtimeSearch(inbound: Inbound, client: SlackWebClient, step: Step): Search {
  const actionToken = actionTokenOf(inbound);
  return async (query, options = {}) => {
    if (actionToken === undefined)
      throw new SearchRefused(
        "no_action_token",
        `search() needs the action_token of a person's message (a message or app_mention event); this run's ${inbound.kind} "${inbound.type}" has none`,
      );
    const args = { ...commaLists(options), query, action_token: actionToken };
    return step(stepName(query, options), async () => {
      try {
        return answerOf(await client.call(SEARCH_METHOD, args));
      } catch (error) {
        throw refusal(error) ?? error;
      }
    });
  };
}

/**
 * The step of a search, named by what it asks: the same query with the same options in a retried
 * run is answered from its checkpoint, and a different one (a model asking otherwise) searches.
 */
function stepName(query: string, options: SearchOptions): string {
  const asked = JSON.stringify([query, Object.entries(options).sort(([a], [b]) => a.localeCompare(b))]);
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  return `search:${hex(fnv1a32(asked))}${hex(fmix32(fnv1a32(asked, 0x01000193)))}`;
}

/** `channel_types`, `content_types`, `term_clauses` as Slack reads them in a form: "a comma-separated list". */
function commaLists(options: SearchOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : value]));
}

/** What a search answers: Slack's `results` and its next page's cursor (`response_metadata.next_cursor`), JSON for the checkpoint. */
function answerOf(answer: Record<string, unknown>): SearchAnswer {
  const results = (answer.results ?? {}) as SearchAnswer["results"];
  const metadata = answer.response_metadata as { next_cursor?: string } | undefined;
  return metadata?.next_cursor ? { results, next_cursor: metadata.next_cursor } : { results };
}

/**
 * Slack's refusal of the search (an `ok: false` no retry changes: `invalid_action_token`,
 * `missing_scope`, …) as a SearchRefused; a dead bot token stays what it is (the installation's).
 */
function refusal(error: unknown): SearchRefused | undefined {
  if (!(error instanceof SlackApiError) || error.disposition !== "park") return undefined;
  if (error.code !== undefined && TOKEN_REJECTIONS.has(error.code)) return undefined;
  const code = error.code ?? `http_${error.status}`;
  return new SearchRefused(code, `${SEARCH_METHOD} refused: ${code}`, { cause: error });
}
