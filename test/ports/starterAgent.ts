// Slack's bolt-js-starter-agent (its openai-agents-sdk variant), ported: app.js. Its listeners are
// under starterAgent/, bodies as Slack wrote them apart from the model call: the AI SDK's
// `streamText` (with a local stand-in for the model, starterAgent/agent/model.ts) piped into
// `sayStream`, and a tool of the port's own that waits durably for the user's confirmation
// before it acts (starterAgent/agent/tools/sendMessage.ts). Only the import, the App construction
// and the export differ here; the manifest declaration carries what the sample's manifest.json says
// that no registration can (its name, the agent view's words, the scopes its tools use).
import { App, createCoordinator } from "../../src/lib";
import { registerListeners } from "./starterAgent/listeners";

export const app = new App({
  ignoreSelf: false,
  manifest: {
    name: "Starter Agent - OpenAI SDK",
    agent: {
      description: "Hi, I am an agent built using Bolt for JavaScript. I am here to help you out!",
      suggested_prompts: [],
    },
    scopes: ["im:read", "im:write", "reactions:read", "reactions:write", "users:read"],
  },
});

registerListeners(app);

const { worker, Shard, Installations } = createCoordinator({ app });

export { Installations, Shard };
export default worker;
