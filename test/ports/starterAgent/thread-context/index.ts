// thread-context/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
import { ConversationStore } from "./store";

export const conversationStore = new ConversationStore();
