/**
 * `app.assistant`: Bolt's Assistant (its handlers, each a listener of the assistant surface), its
 * handlers' tools (`say`, `setTitle`, `setSuggestedPrompts`, the thread's saved context), bound
 * to the event's conversation (inbound/conversation.ts). The store the context is saved in is the shard's (contract/).
 */
export type {
  AgentAppContextChangedArgs,
  AgentMessagesTabOpenedArgs,
  AssistantConfig,
  AssistantThreadContextChangedArgs,
  AssistantThreadStartedArgs,
  AssistantUserMessageArgs,
  AssistantUserMessageEvent,
} from "./assistant";
export { Assistant, assistantListeners } from "./assistant";
export type { AgentViewTools, AssistantPrompt, AssistantTools } from "./assistantTools";
