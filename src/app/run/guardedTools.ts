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
 */
export function guardedTools<T extends object>(tools: T, ending: AttemptEnding): T {
  const guarded: Record<string, unknown> = { ...(tools as Record<string, unknown>) };
  for (const [name, value] of Object.entries(guarded)) {
    if (name === "client") guarded.client = guardedClient(value as RunClient, ending);
    else if (name === "sayStream") guarded.sayStream = guardedSayStream(value as SayStream, ending);
    else if (name === "step") guarded.step = guardedStep(value as Step, ending);
    else if (typeof value === "function") guarded[name] = guardedTool(value as Tool, ending);
  }
  return guarded as T;
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
