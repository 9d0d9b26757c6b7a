import { isAgentRun, parkedSession, runNotice } from "../app/agent";
import type { RunEffect, SlackApp } from "../app/contract";
import type { DeliverySettings } from "../settings";
import { type FollowUps, plannedFollowUps } from "./parkFollowUps";

/** The words a run's user is told its failures in. */
interface NoticeTexts {
  retrying: string;
  failed: string;
}

/**
 * Whether the user of a run is told of its failures, and in what words: as the app chooses
 * (`SlackApp.failureNotices`, `new App({ failureNotices })`); by default only an agent's runs are
 * (app/agent/runNotices.ts), in the settings' words (RUN_RETRYING_TEXT, RUN_PARKED_TEXT).
 */
function noticeTexts(app: SlackApp | undefined, { agent }: DeliverySettings): (effect: RunEffect) => NoticeTexts | undefined {
  return (effect) => {
    const chosen = app?.failureNotices?.(effect) ?? {};
    const runs = chosen.runs ?? "agents";
    if (runs === "none" || (runs === "agents" && !isAgentRun(effect.inbound, agent.sessions))) return undefined;
    return { retrying: chosen.retrying ?? agent.retryingText, failed: chosen.failed ?? agent.parkedText };
  };
}

/**
 * The failed attempt whose retry tells the user: the second in a row. A transient failure the
 * first retry gets past (a 500 on one call, a lost answer: the retry comes ~2 s later) shows the
 * user nothing but the answer; a run that fails again is told about some 6 s after its first try.
 */
export const RETRYING_NOTICE_AT_ATTEMPT = 2;

/**
 * What a run's RETRYING_NOTICE_AT_ATTEMPT-th failed attempt records with its retry
 * (outbox.retryLater, once per row before it is ever parked): its user is told once, in its
 * thread, that the answer is delayed. A stop and a wait are no failure: they never retry.
 */
export function retryNotices(app: SlackApp | undefined, settings: DeliverySettings): FollowUps {
  const texts = noticeTexts(app, settings);
  return plannedFollowUps("retry notice", (effect) => runNotice(effect, "retrying:told", texts(effect)?.retrying ?? ""));
}

/**
 * The coordinator's own follow-ups of a parked run, before the app's: its user is told it failed,
 * and its agent session (AGENT_SESSIONS) leaves `processing`. A stopped or interrupted run is never
 * parked (platform/runErrors.ts): a stop is an outcome, not a failure, and tells no one.
 */
export function failedNotices(app: SlackApp | undefined, settings: DeliverySettings): NonNullable<SlackApp["parked"]> {
  const texts = noticeTexts(app, settings);
  return (effect) => {
    const session = settings.agent.sessions ? parkedSession(effect) : [];
    return [...runNotice(effect, "parked:told", texts(effect)?.failed ?? ""), ...session];
  };
}
