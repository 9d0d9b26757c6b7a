/**
 * Agent sessions (AGENT_SESSIONS, Slack's agent messaging): which thread a run's session is, what
 * a stop planned at the edge does to a conversation's session, and the notice a parked agent run
 * leaves in its thread. Pure plans; the calls are made by run/ and delivered by the outbox.
 */
export { agentThreadOf, parkedRunNotice, stopEffects } from "./agentSessions";
