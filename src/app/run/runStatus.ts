import { loggedIds } from "../../inbound/loggedIds";
import type { Conversation, Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { HandlerMisuse } from "../../platform/errors";
import { describeError, type LogFields, log } from "../../platform/log";
import type { SlackWebClient } from "../../slack/client";
import { agentConversationOf } from "../agent";
import type { StatusUpdate } from "../contract";

/** Slack clears a thread's status 2 minutes after it was set: a run still working sends it again before that. */
export const STATUS_KEEPALIVE_MS = 100_000;

/**
 * A run's status in its thread, kept alive: `set` is `assistant.threads.setStatus` (channel_id,
 * thread_ts), sent again every STATUS_KEEPALIVE_MS while the run works, and cleared when it
 * finishes. In an agent conversation (AGENT_SESSIONS, a user's message in a thread) the run
 * marks its session `processing` when it begins — naming the user whose message started the turn
 * (`initiator_user_id`, which Slack uses when that call creates the session) — and `active` when
 * it finishes. A run that throws is retried and keeps both; one finally parked has them ended by
 * its park follow-ups.
 */
export class RunStatus {
  /** The thread its status and agent session belong to. */
  private readonly conversation: Conversation | undefined;
  private readonly agentSession: boolean;
  /** Whose message started the turn: the session's initiator, when the run's first call creates it. */
  private readonly initiator: string | undefined;
  /** The delivery's ids, on each line this writes. */
  private readonly logged: LogFields;
  private shown: Record<string, unknown> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly client: SlackWebClient,
    inbound: Inbound,
    agentSessions: boolean,
    /** The run's stop: it ends the keep-alive at once, listened to only while one runs (most runs set no status). */
    private readonly stopped?: AbortSignal,
  ) {
    this.conversation = inbound.conversation;
    this.agentSession = agentSessions && agentConversationOf(inbound) !== undefined;
    this.initiator = userOf(inbound);
    this.logged = loggedIds(inbound);
  }

  /** The run begins: its agent session shows it working (and offers the stop button). */
  async begin(): Promise<void> {
    if (this.agentSession)
      await this.session("processing", this.initiator === undefined ? {} : { initiator_user_id: this.initiator });
  }

  /** `setStatus(status)` in a run's arguments. */
  readonly set = async (status: StatusUpdate): Promise<void> => {
    const conversation = this.conversation;
    if (!conversation)
      throw new HandlerMisuse(
        "setStatus() needs a thread, and this delivery has none: call it in a message's or an assistant thread's run",
      );
    const body = typeof status === "string" ? { status } : { ...status };
    await this.client.call("assistant.threads.setStatus", {
      channel_id: conversation.channel,
      thread_ts: conversation.threadTs,
      ...body,
    });
    this.shown = body.status === "" ? undefined : body;
    this.keepAlive();
  };

  /** The run returned: its status is cleared and its session is `active` again (best effort: the run's work is done). */
  finish(): Promise<void> {
    return this.settle("active");
  }

  /**
   * The run suspended itself: its status is cleared, and its session is `suspended` while it waits
   * for a person (Slack's state for an agent waiting on its user), `active` while it sleeps.
   */
  suspend(forPerson: boolean): Promise<void> {
    return this.settle(forPerson ? "suspended" : "active");
  }

  private async settle(session: "active" | "suspended"): Promise<void> {
    this.cancelKeepAlive();
    const conversation = this.conversation;
    try {
      if (this.shown && conversation)
        await this.client.call("assistant.threads.setStatus", {
          channel_id: conversation.channel,
          thread_ts: conversation.threadTs,
          status: "",
        });
      if (this.agentSession) await this.session(session);
    } catch (error) {
      log("warn", "a run's status was not cleared", {
        ...this.logged,
        channel: conversation?.channel,
        error: describeError(error),
      });
    }
  }

  /** The run returned, threw or was stopped: its status is sent no more. */
  readonly cancelKeepAlive = (): void => {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopped?.removeEventListener("abort", this.cancelKeepAlive);
  };

  private keepAlive(): void {
    this.cancelKeepAlive();
    const { shown, conversation, logged } = this;
    if (!shown || !conversation) return;
    // A stop ends it at once, not at the run's end: a stopped run may still be awaiting (its signal, a model).
    this.stopped?.addEventListener("abort", this.cancelKeepAlive, { once: true });
    // Each set restarts the count: Slack's 2 minutes run from the last status it was sent.
    this.timer = setInterval(() => {
      this.client
        .call("assistant.threads.setStatus", { channel_id: conversation.channel, thread_ts: conversation.threadTs, ...shown })
        .catch((error: unknown) => log("warn", "a run's status was not sent again", { ...logged, error: describeError(error) }));
    }, STATUS_KEEPALIVE_MS);
  }

  private async session(status: "processing" | "active" | "suspended", creating: Record<string, string> = {}): Promise<void> {
    const conversation = this.conversation!;
    await this.client.call("agents.sessions.setStatus", {
      channel_id: conversation.channel,
      thread_ts: conversation.threadTs,
      status,
      ...creating,
    });
  }
}
