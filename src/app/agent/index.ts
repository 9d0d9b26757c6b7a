/**
 * Agent sessions (AGENT_SESSIONS, Slack's agent messaging): which conversation a run's session is in, what
 * a stop planned at the edge does to a conversation's session, and the notice a parked agent run
 * leaves in its thread. Pure plans; the calls are made by run/ and delivered by the outbox.
 */
export { agentConversationOf, parkedRunNotice, stopEffects } from "./agentSessions";
