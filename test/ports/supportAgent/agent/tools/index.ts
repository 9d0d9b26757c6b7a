// agent/tools/index.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported: the two
// tools the local stand-in for the model calls.
export { addEmojiReaction } from "./addEmojiReaction";
export { searchKnowledgeBase } from "./knowledgeBase";
