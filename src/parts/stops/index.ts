/**
 * The stop button (`agent_session_stopped`) and a turn's interrupt, the shard's side: when each
 * user last stopped each conversation (`conversationStops.ts`, its table), and the runs a recorded
 * stop or interrupt stops — marked stopped, their streams closed, those running aborted — with each
 * attempt's signal (`runStops.ts`, the part). The streams a stop names are read off Slack's event
 * by inbound/stoppedStreams.ts, and its own Slack calls planned by the app (app/agent/): both are
 * read before any shard.
 */
export { type AttemptStop, Stops } from "./runStops";
