import { atLeast } from "./read";

/**
 * The settings of a streamed reply (`sayStream()`), rows of the settings table (table.ts): where
 * its messages are cut, when Slack's "not streaming" means a drop, and one reply's caps.
 */
export const STREAMED_REPLY_SETTINGS = {
  STREAM_MAX_OPEN_MS: {
    part: "delivery",
    read: atLeast(240_000, 1000),
    doc: "how long one message of a streamed reply (`sayStream()`) stays a stream before the reply continues in a new message in the thread, ahead of Slack's drop after about 5 minutes; at least 1000",
  },
  STREAM_MAX_CHARS: {
    part: "delivery",
    read: atLeast(10_000, 200),
    doc: "the most characters one message of a streamed reply holds before it continues in a new message (also on Slack's `msg_too_long`); at least 200",
  },
  STREAM_SLACK_DROP_MS: {
    part: "delivery",
    read: atLeast(270_000, 1000),
    doc: "how old (since its start) a message of a streamed reply must be for Slack's `message_not_in_streaming_state` to mean Slack dropped it (about 5 minutes): it is closed (`chat.update` to its text) and the reply continues in a new message; found not streaming sooner, it was stopped in Slack (by the user or another client) and the reply finishes there; at least 1000",
  },
  STREAM_MAX_REPLY_CHARS: {
    part: "delivery",
    read: atLeast(100_000, 1000),
    doc: "the most characters one streamed reply (all its messages) shows: past it the reply is cut with a short notice, later text is ignored and its `stop()` still finishes it; at least 1000",
  },
  STREAM_MAX_REPLY_MS: {
    part: "delivery",
    read: atLeast(1_800_000, 10_000),
    doc: "how long one streamed reply may go on from its first message: later text is ignored, the reply finishes with a short notice and its `stop()` still finishes it; at least 10000",
  },
} as const;
