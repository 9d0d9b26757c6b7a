import { expect } from "vitest";
import { POST_EVENT_TYPE, POST_ID_FIELD } from "../../src/slack/postIds";

/**
 * The metadata every post of a row carries (src/slack/postIds.ts): the coordinator's event type
 * and the post's id, which ends in the step it was made in ("" outside steps) and its place there.
 */
export function namedPost(step = "", n = 1) {
  return {
    event_type: POST_EVENT_TYPE,
    event_payload: { [POST_ID_FIELD]: expect.stringMatching(new RegExp(`#${step.replace(/[.:-]/g, "\\$&")}#${n}$`)) },
  };
}
