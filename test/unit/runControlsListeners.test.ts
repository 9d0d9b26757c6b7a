import { afterEach, describe, expect, it, vi } from "vitest";
import { withRunControls } from "../../src/app/run";
import { STATUS_KEEPALIVE_MS } from "../../src/app/run/runStatus";
import type { SlackWebClient } from "../../src/slack/client";
import { channelMessage } from "../../src/testing/deliveries";
import { eventDelivery } from "../support/inboundOf";

afterEach(() => {
  vi.useRealTimers();
});

/** A stop signal that counts the listeners put on it and taken off it. */
function countedStop() {
  const controller = new AbortController();
  const { signal } = controller;
  const counted = { added: 0, removed: 0 };
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<AbortSignal["addEventListener"]>) => {
    counted.added++;
    add(...args);
  }) as AbortSignal["addEventListener"];
  signal.removeEventListener = ((...args: Parameters<AbortSignal["removeEventListener"]>) => {
    counted.removed++;
    remove(...args);
  }) as AbortSignal["removeEventListener"];
  return { controller, signal, counted };
}

/** A client that records the methods it is called with and answers ok. */
function recordingClient() {
  const methods: string[] = [];
  const client = {
    call: async (method: string) => {
      methods.push(method);
      return { ok: true };
    },
  } as unknown as SlackWebClient;
  return { client, methods };
}

const inbound = () => eventDelivery("T1", channelMessage({ text: "hello" }));

describe("a run's controls put nothing on its stop signal per run", () => {
  it("a run that sets no status adds no listener to its stop signal", async () => {
    const { signal, counted } = countedStop();
    const { client, methods } = recordingClient();
    let ran = 0;
    await withRunControls(inbound(), client, { stopped: signal, agentSessions: false }, async () => {
      ran++;
    });
    expect(ran).toBe(1);
    expect(methods).toEqual([]);
    expect(counted).toEqual({ added: 0, removed: 0 });
  });

  it("a status's keep-alive listens for the stop only while it runs, and a stop ends it at once", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const { controller, signal, counted } = countedStop();
    const { client, methods } = recordingClient();
    let stopNow: () => void = () => {};
    const stoppedRun = withRunControls(inbound(), client, { stopped: signal, agentSessions: false }, async ({ setStatus }) => {
      await setStatus("is thinking…");
      await new Promise<void>((resolve) => {
        stopNow = resolve;
      });
    });
    await vi.waitFor(() => expect(methods).toEqual(["assistant.threads.setStatus"]));
    expect(counted).toEqual({ added: 1, removed: 0 });
    vi.advanceTimersByTime(STATUS_KEEPALIVE_MS);
    expect(methods).toEqual(["assistant.threads.setStatus", "assistant.threads.setStatus"]);
    controller.abort();
    // Stopped while the run still awaits: its keep-alive sends nothing more.
    vi.advanceTimersByTime(3 * STATUS_KEEPALIVE_MS);
    expect(methods).toHaveLength(2);
    stopNow();
    await expect(stoppedRun).rejects.toThrow();
    expect(counted.added).toBe(1);
  });

  it("a status cleared by the run's end takes its listener off again", async () => {
    const { signal, counted } = countedStop();
    const { client, methods } = recordingClient();
    await withRunControls(inbound(), client, { stopped: signal, agentSessions: false }, async ({ setStatus }) => {
      await setStatus("is thinking…");
    });
    expect(methods).toEqual(["assistant.threads.setStatus", "assistant.threads.setStatus"]);
    expect(counted).toEqual({ added: 1, removed: 1 });
  });
});
