import { describe, expect, it } from "vitest";
import { ParkedError } from "../../src/platform/errors";

// What app.error is given, as Bolt's CodedError: the park reason read back into a code and the
// error the run threw (its name and message), from each shape a run's park reason takes.
const parked = (reason: string) => {
  const { message, code, original, originalName } = new ParkedError("broken", reason);
  return { message, code, original: `${original.name}: ${original.message}`, originalName };
};

describe("ParkedError", () => {
  it("a listener's own throw, attempts used: its class and message, without where it was thrown", () => {
    const reason = 'attempts exhausted; last: handler "broken" threw TypeError: x is (not) a function (at run (app.js:3:9))';
    expect(parked(reason)).toEqual({
      message: reason,
      code: "slack_coordinator_handler_error",
      original: "TypeError: x is (not) a function",
      originalName: "TypeError",
    });
  });

  it("a misuse, parked at once: HandlerMisuse and what it said", () => {
    expect(parked('handler "broken": say() needs a channel')).toMatchObject({
      code: "slack_coordinator_handler_misuse",
      original: "HandlerMisuse: say() needs a channel",
      originalName: "HandlerMisuse",
    });
  });

  it("anything else no retry cured: the last failure as it was recorded", () => {
    expect(parked("attempts exhausted; last: chat.postMessage: 503 service_unavailable")).toEqual({
      message: "attempts exhausted; last: chat.postMessage: 503 service_unavailable",
      code: "slack_coordinator_run_parked",
      original: "Error: chat.postMessage: 503 service_unavailable",
      originalName: undefined,
    });
    expect(parked("chat.postMessage: 200 channel_not_found")).toMatchObject({
      code: "slack_coordinator_run_parked",
      original: "Error: chat.postMessage: 200 channel_not_found",
    });
  });

  it("is an Error with Bolt's fields", () => {
    const error = new ParkedError("broken", 'handler "broken" threw Error: boom');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "ParkedError", listener: "broken", code: "slack_coordinator_handler_error" });
    expect(error.original).toBeInstanceOf(Error);
  });
});
