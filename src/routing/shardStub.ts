/** The stub of a shard by name; a fresh stub each call (a stub that saw an error is broken). */
export function shardStub<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  return namespace.get(namespace.idFromName(name));
}
