/** A V8 CPU profile (Chrome DevTools' `.cpuprofile`), as the inspector's Profiler.stop returns it. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  /** Microseconds between consecutive samples (the first from the profile's start). */
  timeDeltas: number[];
}

/** Where the samples fell: each function's own share (self time), largest first. */
export function selfTime(profile: CpuProfile, top: number): Array<{ share: number; where: string }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const tally = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const where = `${frame.functionName || "(anonymous)"}${frame.url ? ` ${frame.url.split("/").pop()}:${frame.lineNumber + 1}` : ""}`;
    tally.set(where, (tally.get(where) ?? 0) + 1);
  }
  return [...tally]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, n]) => ({ share: n / Math.max(profile.samples.length, 1), where }));
}

/**
 * Who called `name` (a native such as `exec`, SQLite's): the nearest named functions of the
 * bundle above each of its samples, e.g. which statement's caller spends SQLite's time.
 */
export function callersOf(profile: CpuProfile, name: string, top: number): Array<{ share: number; chain: string }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const tally = new Map<string, number>();
  for (const id of profile.samples) {
    if (byId.get(id)?.callFrame.functionName !== name) continue;
    const chain: string[] = [];
    for (let at = parent.get(id); at !== undefined && chain.length < 3; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.url && frame.functionName) chain.push(frame.functionName);
    }
    const key = chain.join(" ← ");
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  return [...tally]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([chain, n]) => ({ share: n / Math.max(profile.samples.length, 1), chain }));
}

/** Drives V8's profiler over the inspector protocol (Node's global WebSocket) on one target. */
export class Profiler {
  private nextId = 0;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (message) => {
      const data = JSON.parse(String(message.data)) as { id?: number; result?: unknown; error?: { message?: string } };
      // A method the runtime's inspector does not offer answers an error: said, not taken for an empty result.
      if (data.error) console.warn(`inspector: ${data.error.message ?? JSON.stringify(data.error)}`);
      if (data.id !== undefined) this.waiting.get(data.id)?.(data.result);
    });
  }

  /** Connects to the inspector on 127.0.0.1:`port`, to the target whose id contains `worker`. */
  static async connect(port: number, worker: string): Promise<Profiler> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Array<{
      id: string;
      webSocketDebuggerUrl: string;
    }>;
    const target = targets.find((t) => t.id === `core:user:${worker}`);
    if (!target) throw new Error(`no inspector target for ${worker} (have: ${targets.map((t) => t.id).join(", ")})`);
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((open, fail) => {
      socket.addEventListener("open", open);
      socket.addEventListener("error", fail);
    });
    return new Profiler(socket);
  }

  private send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, (result) => resolve(result as T));
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async start(intervalUs: number): Promise<void> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.send("Profiler.start");
  }

  async stop(): Promise<CpuProfile> {
    return (await this.send<{ profile: CpuProfile }>("Profiler.stop")).profile;
  }

  /** Starts V8's sampling heap profiler: allocations, sampled, kept until the GC frees them. */
  async startHeapSampling(intervalBytes = 16_384): Promise<void> {
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.startSampling", { samplingInterval: intervalBytes });
  }

  /** Bytes still on the heap (not yet freed by a collection) by the allocating function, largest first. */
  async heapSampledBy(top: number): Promise<Array<{ bytes: number; where: string }>> {
    type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
    const { profile } = await this.send<{ profile: { head: Node } }>("HeapProfiler.getSamplingProfile");
    const bytes = new Map<string, number>();
    const walk = (node: Node, caller: string) => {
      const frame = node.callFrame;
      const here = `${frame.functionName || "(anonymous)"}${frame.url ? `:${frame.lineNumber}` : ""}`;
      const where = caller ? `${here} ← ${caller}` : here;
      if (node.selfSize > 0) bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child, here);
    };
    walk(profile.head, "");
    return [...bytes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([where, n]) => ({ bytes: n, where }));
  }

  /** A full (major) collection of the isolate now: what is left on the heap after it is live. */
  async collectGarbage(): Promise<void> {
    await this.send("HeapProfiler.collectGarbage");
  }

  /** The isolate's JS heap now, bytes (V8's used and total sizes). */
  heapUsage(): Promise<{ usedSize: number; totalSize: number }> {
    return this.send("Runtime.getHeapUsage");
  }

  /**
   * Samples every allocation from now on, those the collector has freed since included (V8's
   * sampling heap profiler with `includeObjectsCollected…`): what a run allocates, not what it keeps.
   */
  async startAllocationSampling(intervalBytes = 1024): Promise<void> {
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.startSampling", {
      samplingInterval: intervalBytes,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }

  /** Stops the sampling: the allocations sampled since it started, as a tree of call frames. */
  async stopAllocationSampling(): Promise<AllocationNode> {
    return (await this.send<{ profile: { head: AllocationNode } }>("HeapProfiler.stopSampling")).profile.head;
  }

  close(): void {
    this.socket.close();
  }
}

/** A call frame of a sampled allocation profile: the bytes sampled in it (`selfSize`), and its callees. */
export interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}
