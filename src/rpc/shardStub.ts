import { BoundedMap } from "../platform/boundedMap";
import type { ShardNamespace } from "./env";
import type { LayoutKeeperApi, PaceKeeperApi, ShardOperationsApi, WatchApi, WorkspaceShardApi } from "./shard";
import { shardName } from "./shardFor";
import { WATCH } from "./watch";

type Stub<T> = DurableObjectStub<T & Rpc.DurableObjectBranded>;

/** Each namespace's ids by shard name, per isolate: an id is a value (a hash of the name), a stub is not. */
const ids = new WeakMap<object, BoundedMap<string, DurableObjectId>>();

/**
 * The stub of a shard by name, with every role's methods (tests); a fresh stub each call (a stub
 * that saw an error is broken, and a stub belongs to its request). Its id is computed once per
 * name and isolate (idFromName hashes the name). Callers use the role's stub below, which offers
 * that role's methods only.
 */
export function shardStub<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  let known = ids.get(namespace);
  if (!known) {
    known = new BoundedMap(10_000);
    ids.set(namespace, known);
  }
  let id = known.get(name);
  if (!id) {
    id = namespace.idFromName(name);
    known.set(name, id);
  }
  return namespace.get(id);
}

/** A workspace's shard ("{workspace}/{bucket}"): ingest, backend answers, installation changes, operations. */
export function workspaceShardStub(namespace: ShardNamespace, name: string): Stub<WorkspaceShardApi> {
  return shardStub(namespace, name);
}

/** The watch: alerts, the guard, the registry of shards, and its own operations. */
export function watchStub(namespace: ShardNamespace): Stub<WatchApi> {
  return shardStub(namespace, WATCH);
}

/** Any shard, either role, as operations see it: its counts, metrics and dead-letter queue. */
export function shardOperationsStub(namespace: ShardNamespace, name: string): Stub<ShardOperationsApi> {
  return shardStub(namespace, name);
}

/** A workspace's bucket 0, which keeps its bucket layouts. */
export function layoutKeeperStub(namespace: ShardNamespace, workspace: string): Stub<LayoutKeeperApi> {
  return shardStub(namespace, shardName(workspace, 0));
}

/** The shard that keeps some of a workspace's rate keys (pacing/). */
export function paceKeeperStub(namespace: ShardNamespace, name: string): Stub<PaceKeeperApi> {
  return shardStub(namespace, name);
}
