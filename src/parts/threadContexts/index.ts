/**
 * Assistant threads' contexts and agent sessions' titles, a workspace shard's part: each thread's
 * saved context (`assistantThreads.ts`) and the title its user chose (`sessionTitles.ts`), both
 * pruned by age with the statements they share (`keptByAge.ts`), composed as the part
 * (`threadContextsPart.ts`): the store a run reads and saves, pruned by the alarm, deleted when
 * the workspace's installation goes. Only a role that keeps them builds it (shard/workspaceShard.ts).
 */
export { ThreadContexts } from "./threadContextsPart";
