/**
 * Uncertain posts, the shard's side: a post an earlier attempt may have made unbeknown to its row is
 * looked for in Slack before it is sent again. Here, what a shard's attempts share of that: one
 * lookup of a conversation serving every uncertain row of it (`postLookups.ts`), how long each row
 * has waited for its lookup across its attempts (`lookupWaits.ts`), composed as the part
 * (`uncertainPostsPart.ts`). One attempt's posts — named, and looked for through these — are the
 * attempt's side: delivery/attemptPosts.ts, with the attempt's running steps and its lease.
 */
export { LookupWaits } from "./lookupWaits";
export { type Asker, type Look, PostLookups, SHARED_LOOKUP_MS } from "./postLookups";
export { UncertainPosts } from "./uncertainPostsPart";
