/**
 * Agent sessions (AGENT_SESSIONS, Slack's agent messaging): which conversation a run's session is in, what
 * a stop planned at the edge does to a conversation's session and what a parked run does to it;
 * the notices a failing run leaves its user (`runNotices.ts`, on for agents by default). Pure
 * plans; the calls are made by run/ and delivered by the outbox.
 */
export { agentConversationOf, parkedSession, stopEffects } from "./agentSessions";
export { isAgentRun, runNotice } from "./runNotices";
