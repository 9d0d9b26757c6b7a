// agent/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported; AgentInputItem is
// the AI SDK's message (the sample imports it from @openai/agents).
export { type AgentInputItem, runAgent, starterAgent } from "./agent";
export { AgentDeps } from "./deps";
