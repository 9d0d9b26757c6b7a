// agent/deps.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported. What the port adds:
// the run's durable tools, which the sample's agent has no need of — `step` (a tool's work done
// once per run), `waitForAction` (a person's confirmation) and the stop button's `signal`.
import type { DurableWaits, SlackWebClient, Step } from "../../../../src/lib";

/** The run's durable tools, as its listener gets them. */
export interface RunDurability {
  signal: AbortSignal;
  step: Step;
  waitForAction: DurableWaits["waitForAction"];
}

/** Dependencies passed to the agent as run context. */
export class AgentDeps {
  constructor(
    public client: SlackWebClient,
    public userId: string,
    public channelId: string,
    public threadTs: string,
    public messageTs: string,
    public userToken: string | undefined = undefined,
    public run: RunDurability,
  ) {}
}

/** AgentDeps as the AI SDK's tools take a run context: a plain object type (the SDK's `Context`). */
export type AgentContext = Pick<AgentDeps, keyof AgentDeps>;
