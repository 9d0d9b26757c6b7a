// Slack's bolt-js-support-agent (its openai-agents-sdk variant: Casey, an IT helpdesk agent),
// ported: app.js. Its listeners are under supportAgent/, bodies as Slack wrote them; only the
// import, the App construction and the export differ here, and the model is a local stand-in
// (supportAgent/agent/supportAgent.ts).
import { App, createCoordinator } from "../../src/lib";
import { registerListeners } from "./supportAgent/listeners";

// The issue modal posts into the user's DM and the message listener answers that post: the app's
// own messages must reach it (Bolt's option, as the sample sets it).
export const app = new App({ ignoreSelf: false });

registerListeners(app);

const { worker, Shard, Installations } = createCoordinator({ app });

export { Installations, Shard };
export default worker;
