import type { AnyChunk } from "@slack/types";
import { describe, expect, it } from "vitest";
import { type ReplayState, replayFinish, replayFrom, replayText, type Shown, saidOf } from "../../src/app/streams/recover/replay";
import { kept, sealed } from "../support/shownMessages";

const chunk = (id: string): AnyChunk => ({ type: "task_update", id, title: id, status: "complete" }) as unknown as AnyChunk;

/** Feeds a retried run's `texts` in turn, then its stop: each step, and the match at the end. */
function replayed(shown: Shown, texts: string[]) {
  let state: ReplayState = replayFrom(true);
  const steps = texts.map((text) => {
    const next = replayText(shown, state, text, []);
    state = next.state;
    return next.step;
  });
  const finish = replayFinish(shown, state);
  return { steps, finish: finish.step, said: saidOf(state), state: finish.state };
}

describe("a retried run's text matched against what Slack shows (replayText, replayFinish)", () => {
  it("a run with nothing shown before sends its text as it comes", () => {
    const state = replayFrom(false);
    const { state: next, step } = replayText({ messages: [], chunks: 0 }, state, "Hello", [chunk("a")]);
    expect(step).toEqual({ text: "Hello", extra: [chunk("a")] });
    expect(next).toBe(state);
    expect(replayFinish({ messages: [], chunks: 0 }, state).step).toEqual({ text: "", extra: [] });
  });

  it("text that repeats what shows, across messages, sends nothing and cuts nothing", () => {
    const shown = { messages: [kept("1", "Hello "), kept("2", "world")], chunks: 0 };
    const run = replayed(shown, ["Hel", "lo wo", "rld"]);
    expect(run.steps).toEqual([
      { text: "", extra: [] },
      { text: "", extra: [] },
      { text: "", extra: [] },
    ]);
    expect(run.said).toBe(11);
    expect(run.finish).toEqual({ text: "", extra: [] });
  });

  it("text going on past what shows sends only the rest, with no cut", () => {
    const shown = { messages: [kept("1", "Hello world")], chunks: 0 };
    const run = replayed(shown, ["Hello world, again", " and more"]);
    expect(run.steps).toEqual([
      { text: ", again", extra: [] },
      { text: " and more", extra: [] },
    ]);
    expect(run.state.active).toBe(false);
  });

  it("text differing inside a kept message cuts back to where it differs and sends the run's text from there", () => {
    const shown = { messages: [kept("1", "Hello wor"), kept("2", "ld")], chunks: 0 };
    const run = replayed(shown, ["Hello there"]);
    expect(run.steps).toEqual([{ text: "there", extra: [], cutAt: 6 }]);
    expect(run.finish).toEqual({ text: "", extra: [] });
  });

  it("a sealed message is matched as a whole: its text is held until it is complete, then known to show", () => {
    const shown = { messages: [sealed("1", "abcdef"), kept("2", "ghi")], chunks: 0 };
    let state = replayFrom(true);
    const first = replayText(shown, state, "abc", []);
    state = first.state;
    expect(first.step).toEqual({ text: "", extra: [] });
    expect(state).toEqual({ active: true, matched: 0, pending: "abc", chunksSeen: 0 });
    const second = replayText(shown, state, "defghi", []);
    expect(second.step).toEqual({ text: "", extra: [] });
    expect(second.state).toEqual({ active: true, matched: 9, pending: "", chunksSeen: 0 });
  });

  it("a difference inside a sealed message cuts back to that message's start, and its whole text is sent again", () => {
    const shown = { messages: [sealed("1", "abc"), sealed("2", "def"), kept("3", "gh")], chunks: 0 };
    expect(replayed(shown, ["abcdXf", "gh"]).steps).toEqual([
      { text: "dXf", extra: [], cutAt: 3 },
      { text: "gh", extra: [] },
    ]);
    expect(replayed({ messages: [sealed("1", "abcdef"), kept("2", "ghi")], chunks: 0 }, ["abXdefghi"]).steps).toEqual([
      { text: "abXdefghi", extra: [], cutAt: 0 },
    ]);
  });

  it("a reply shorter than what shows is cut back at its stop", () => {
    const run = replayed({ messages: [kept("1", "Hello "), kept("2", "world")], chunks: 0 }, ["Hello w"]);
    expect(run.steps).toEqual([{ text: "", extra: [] }]);
    expect(run.finish).toEqual({ text: "", extra: [], cutAt: 7 });
  });

  it("a reply that ends inside a sealed message cuts back to its start and sends what it held of it", () => {
    const run = replayed({ messages: [kept("1", "xy"), sealed("2", "abcdef"), kept("3", "gh")], chunks: 0 }, ["xyabc"]);
    expect(run.steps).toEqual([{ text: "", extra: [] }]);
    expect(run.finish).toEqual({ text: "abc", extra: [], cutAt: 2 });
    expect(run.state).toEqual({ active: false, matched: 2, pending: "", chunksSeen: 0 });
  });

  it("chunks already shown are not sent again; a new one past the shown text is sent without a cut", () => {
    const shown = { messages: [kept("1", "Hello")], chunks: 2 };
    const first = replayText(shown, replayFrom(true), "Hello", [chunk("a"), chunk("b")]);
    expect(first.step).toEqual({ text: "", extra: [] });
    expect(first.state.chunksSeen).toBe(2);
    const second = replayText(shown, first.state, "", [chunk("c")]);
    expect(second.step).toEqual({ text: "", extra: [chunk("c")] });
    expect(second.state.active).toBe(false);
  });

  it("a new chunk while the run's text is still inside what shows cuts back there", () => {
    const shown = { messages: [kept("1", "Hello world")], chunks: 1 };
    const { step } = replayText(shown, replayFrom(true), "Hello", [chunk("a"), chunk("b")]);
    expect(step).toEqual({ text: "", extra: [chunk("b")], cutAt: 5 });
  });
});
