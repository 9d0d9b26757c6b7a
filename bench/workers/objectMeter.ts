/**
 * What Cloudflare bills a Durable Object for, counted in the isolate the Worker and its objects
 * share under local workerd: requests (each RPC method call or fetch on a stub: one RPC session
 * each), alarm invocations, setAlarm() calls (one row written each), and which objects were
 * reached (for their active time and their database size). Bench-only (meteredCoordinator.ts).
 */
export const objectUsage = {
  /** RPC method calls and fetches on a stub of a metered namespace, from the Worker or from another object. */
  requests: 0,
  alarms: 0,
  alarmsSet: 0,
};

/** Requests and alarms by object (its id, hex): which objects a run kept active. */
export const reachedObjects = new Map<string, number>();

/** One request or alarm on the object `id`. */
export function reached(id: DurableObjectId): void {
  const hex = id.toString();
  reachedObjects.set(hex, (reachedObjects.get(hex) ?? 0) + 1);
}

const BILLED = (property: string | symbol) =>
  typeof property === "string" && property !== "then" && property !== "id" && property !== "name";

/** A stub whose every method call counts as one request to its object. */
function meteredStub<T extends object>(stub: T, id: DurableObjectId): T {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function" || !BILLED(property)) return value;
      return (...args: unknown[]) => {
        objectUsage.requests++;
        reached(id);
        return Reflect.apply(value, target, args);
      };
    },
  });
}

const wrapped = new WeakMap<object, object>();

/** The namespace with its stubs metered (`get`, `getByName`); ids and everything else as they are. */
function meteredNamespace<T extends DurableObjectNamespace>(namespace: T): T {
  const known = wrapped.get(namespace);
  if (known) return known as T;
  const proxy = new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "get")
        return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) =>
          meteredStub(target.get(id, options), id);
      if (property === "getByName")
        return (name: string, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
          const id = target.idFromName(name);
          return meteredStub(target.get(id, options), id);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  wrapped.set(namespace, proxy);
  return proxy;
}

const isNamespace = (value: unknown): value is DurableObjectNamespace =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as DurableObjectNamespace).idFromName === "function" &&
  typeof (value as DurableObjectNamespace).get === "function";

const meteredEnvs = new WeakMap<object, object>();

/** The env with each Durable Object namespace metered; the other bindings as they are. One per env (code may key caches on it). */
export function meteredEnv<E extends object>(env: E): E {
  const known = meteredEnvs.get(env);
  if (known) return known as E;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(env)) out[key] = isNamespace(value) ? meteredNamespace(value) : value;
  meteredEnvs.set(env, out);
  return out as E;
}

/** Counts each setAlarm() on this object's storage (Cloudflare bills one row written for each). */
export function meterAlarmsSet(storage: DurableObjectStorage): void {
  const setAlarm = storage.setAlarm.bind(storage);
  storage.setAlarm = (...args: Parameters<DurableObjectStorage["setAlarm"]>) => {
    objectUsage.alarmsSet++;
    return setAlarm(...args);
  };
}
