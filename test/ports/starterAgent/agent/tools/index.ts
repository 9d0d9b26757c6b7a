// agent/tools/index.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported, with the
// port's own tool that asks the user before it acts.
export { addEmojiReaction } from "./emojiReaction";
export { sendMessage } from "./sendMessage";
