import { afterEach, describe, expect, it, vi } from "vitest";
import { lineOf, runLogger } from "../../src/app/run/runLogger";

// A run's logger takes what Bolt's takes (issue 31): what every Slack sample writes must give one
// JSON line with the delivery's keys, its message readable and the error's description kept.

afterEach(() => vi.restoreAllMocks());

const lines = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([line]) => JSON.parse(String(line)));

describe("a run's logger, as Bolt's", () => {
  it("logger.error(err): the error's name and message are the message, where it was thrown is `error`", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    runLogger({ key: "Ev1:run" }).error(new TypeError("no channel"));
    const [line] = lines(error);
    expect(line).toMatchObject({ level: "error", msg: "TypeError: no channel", key: "Ev1:run" });
    expect(line.error).toMatch(/^TypeError: no channel \(at .+\)$/);
  });

  it("a message with fields, a message with an error, values of any kind", () => {
    expect(lineOf(["sent", { ts: "1.1", n: 2 }])).toEqual({ msg: "sent", fields: { ts: "1.1", n: 2 } });
    const failed = lineOf(["failed to post:", new Error("ratelimited")]);
    expect(failed.msg).toBe("failed to post:");
    expect(failed.fields.error).toMatch(/^Error: ratelimited/);
    expect(lineOf(["retrying in", 3, "s"])).toEqual({ msg: "retrying in 3 s", fields: {} });
    expect(lineOf([{ user: { id: "U1" } }, ["a", "b"]])).toEqual({
      msg: "log",
      fields: { user: '{"id":"U1"}', value_2: '["a","b"]' },
    });
    // Two errors keep both; a cycle is described, not thrown.
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const two = lineOf([new Error("first"), new Error("second"), { cyclic }]);
    expect([two.msg, String(two.fields.error).split(" (")[0], String(two.fields.error_2).split(" (")[0]]).toEqual([
      "Error: first",
      "Error: first",
      "Error: second",
    ]);
    expect(two.fields.cyclic).toBe("[object Object]");
  });

  it("the delivery's keys win over a field of the same name, and a long value is bounded", () => {
    const info = vi.spyOn(console, "log").mockImplementation(() => {});
    runLogger({ key: "Ev2:run" }).info("payload", { key: "mine", blob: { text: "x".repeat(5_000) } });
    const [line] = lines(info);
    expect(line.key).toBe("Ev2:run");
    expect(String(line.blob).length).toBe(1_000);
  });
});
