// agent/index.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported; AgentInputItem is
// the stand-in's (the sample imports it from @openai/agents).
export { CaseyDeps } from "./deps";
export { type AgentInputItem, runCasey } from "./supportAgent";
