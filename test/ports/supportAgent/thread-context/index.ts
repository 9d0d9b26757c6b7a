// thread-context/index.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import { ConversationStore } from "./store";

export const conversationStore = new ConversationStore();
