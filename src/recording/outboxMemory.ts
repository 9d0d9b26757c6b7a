import type { MeteredSql } from "../platform/sql/meteredSql";
import { IndexedThreads } from "./indexedThreads";
import { OutboxCounts } from "./outboxCounts";
import { OutboxLeases } from "./outboxLeases";
import { OutboxWalk } from "./outboxWalk";
import { LEAD_UNKNOWN } from "./turnMarks";

const memories = new WeakMap<object, OutboxMemory>();

/**
 * What a Durable Object instance knows of its outbox without reading it again: the leases out
 * (outboxLeases.ts), the rows by status (outboxCounts.ts), its threads' unindexed leads
 * (outboxTurns.ts), and how far its walk of what it inherited has gone (outboxWalk.ts). One per
 * object's storage, however many views of the outbox its code makes (a role's, a test's).
 */
export class OutboxMemory {
  readonly leases = new OutboxLeases();
  readonly counts: OutboxCounts;
  readonly walk: OutboxWalk;
  /** Each conversation's pending unindexed lead, as recorded here or found by the walk. */
  readonly leads = new Map<string, string>();
  /** Threads that may have an indexed turn pending (indexedThreads.ts): the others need no read once the walk is complete. */
  readonly indexed = new IndexedThreads();
  /**
   * Conversations whose held turns the walk's end looks at: a turn recorded as LEAD_UNKNOWN names
   * its lead then, and a held turn whose thread is free is made due (the turn before it may have
   * ended in an instance that died before it could let it go).
   */
  readonly threadsToSettle = new Set<string>();
  /** Whether what the walk's end asks for (naming unknown leads, held turns let go) was done. */
  walkSettled = false;

  /** The memory of the object whose storage `sql` reads. */
  static of(sql: MeteredSql): OutboxMemory {
    let memory = memories.get(sql.storageKey);
    if (!memory) {
      memory = new OutboxMemory(sql);
      memories.set(sql.storageKey, memory);
    }
    return memory;
  }

  private constructor(sql: MeteredSql) {
    this.counts = new OutboxCounts((key) => this.walk.passed(key));
    this.walk = new OutboxWalk(sql, {
      row: (row) => {
        // A lease found here is one an instance before this one wrote (this instance's are noted already).
        if (row.claimToken !== null && row.claimExpiresAt !== null && !this.leases.has(row.key))
          this.leases.noted(row.key, { token: row.claimToken, expiresAt: row.claimExpiresAt });
        if (row.turn !== null && row.turnSeq === null) this.leads.set(row.turn, row.key);
        if (row.turn !== null && row.turnSeq !== null) this.indexed.noted(row.turn);
        if (row.turn !== null && (row.turnAfter === LEAD_UNKNOWN || row.held)) this.threadsToSettle.add(row.turn);
        this.counts.walked("pending");
      },
      ended: (status) => this.counts.walked(status),
    });
  }
}
