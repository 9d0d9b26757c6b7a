import { withWebApiMethods } from "../../slack/webApiMethods";
import type { Step } from "../contract";
import type { RunClient } from "../listeners";
import type { ChatStreamer, SayStream } from "../streams";
import { type AttemptEnding, endsTheAttempt, ownCode } from "./attemptEnding";

type Tool = (...args: never[]) => unknown;

/**
 * A run's tools as its code gets them, every call through `ending` (attemptEnding.ts): the client
 * and each of its Web API methods, `step` (what its function throws stays the code's own),
 * `sayStream`'s streamers, and every other function among `tools` (`say`, `respond`,
 * `waitForAction`, `sleep`, `setStatus`, `complete`, `ack`, an assistant's `setTitle` …).
 * Values that are no function (the payload, `context`, `logger`, `signal`, `env`) stay as they are.
 * Each is guarded when the code first reads it, then kept: a run reads a few of its thirty-odd tools.
 */
export function guardedTools<T extends object>(tools: T, ending: AttemptEnding): T {
  const made = new Map<string, { from: unknown; guarded: unknown }>();
  return new Proxy(tools, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      // The client is an object of methods; every other tool a function.
      if (typeof key !== "string" || (typeof value !== "function" && !(key === "client" && typeof value === "object" && value)))
        return value;
      const kept = made.get(key);
      if (kept !== undefined && kept.from === value) return kept.guarded;
      const guarded = guardedValue(key, value, ending);
      made.set(key, { from: value, guarded });
      return guarded;
    },
  });
}

function guardedValue(name: string, value: unknown, ending: AttemptEnding): unknown {
  if (name === "client") return guardedClient(value as RunClient, ending);
  if (name === "sayStream") return guardedSayStream(value as SayStream, ending);
  if (name === "step") return guardedStep(value as Step, ending);
  return guardedTool(value as Tool, ending);
}

function guardedTool<F extends Tool>(tool: F, ending: AttemptEnding): F {
  return ((...args: Parameters<F>) => ending.guard(() => tool(...args))) as F;
}

function guardedStep(step: Step, ending: AttemptEnding): Step {
  return (name, fn) => ending.guard(() => step(name, ownCode(fn)));
}

/**
 * The client with every call through `ending`: its own members (`call`, `respond`,
 * `uploadBytes`) guarded, the Web API method tree built again over them (so
 * `client.chat.postMessage(…)` is guarded too), and Bolt 5's `chatStream` as `sayStream` is.
 */
function guardedClient(client: RunClient, ending: AttemptEnding): RunClient {
  const own = new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      // Its own members only: a method of the tree (`chat`) is built again by withWebApiMethods below.
      if (typeof key !== "string" || typeof value !== "function" || !(key in target)) return value;
      return (...args: unknown[]) => ending.guard(() => value.apply(target, args));
    },
  });
  const chatStream = guardedSayStream(client.chatStream as SayStream, ending);
  const methods = withWebApiMethods(own);
  return new Proxy(methods, {
    get: (target, key) => (key === "chatStream" ? chatStream : Reflect.get(target, key, target)),
  }) as RunClient;
}

/**
 * `sayStream`, its streamers' calls through `ending`. A streamer that cannot be made (no thread
 * to stream in: a misuse) ends the attempt too, and the code gets one whose calls never settle.
 */
function guardedSayStream(sayStream: SayStream, ending: AttemptEnding): SayStream {
  return (options) => {
    let streamer: ChatStreamer;
    try {
      streamer = sayStream(options);
    } catch (error) {
      if (!endsTheAttempt(error)) throw error;
      void ending.end(error);
      return endedStreamer(ending);
    }
    return {
      append: (args) => ending.guard(() => streamer.append(args)),
      stop: (args) => ending.guard(() => streamer.stop(args)),
      pipe: (result, pipeOptions) => ending.guard(() => streamer.pipe(result, pipeOptions)),
      get ts() {
        return streamer.ts;
      },
      signal: streamer.signal,
    };
  };
}

/** The streamer of an attempt that has ended: its calls never settle. */
function endedStreamer(ending: AttemptEnding): ChatStreamer {
  const nothing = () => ending.guard<never>(() => undefined as never);
  // Its signal is aborted: a model given it does not start for an attempt that has ended.
  return { append: nothing, stop: nothing, pipe: nothing, ts: undefined, signal: AbortSignal.abort() };
}
