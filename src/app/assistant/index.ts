/**
 * `app.assistant`: Bolt's Assistant (its handlers, each a listener of the assistant surface), its
 * handlers' tools (`say`, `setTitle`, `setSuggestedPrompts`, the thread's saved context), bound
 * to the event's conversation (inbound/conversation.ts), and the title a user chose for a session
 * (userTitles.ts). The store the context and title are kept in is the shard's (contract/).
 */
export type {
  AgentAppContextChangedArgs,
  AgentMessagesTabOpenedArgs,
  AgentSessionTitleChangedArgs,
  AssistantConfig,
  AssistantThreadContextChangedArgs,
  AssistantThreadStartedArgs,
  AssistantUserMessageArgs,
  AssistantUserMessageEvent,
} from "./assistant";
export { Assistant, assistantListeners } from "./assistant";
export type { AgentViewTools, AssistantPrompt, AssistantTools } from "./assistantTools";
export type { SetTitleOptions } from "./userTitles";
