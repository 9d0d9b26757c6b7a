import { describe, expect, it, vi } from "vitest";
import { demoModel, WORKERS_AI_MODEL } from "../../src/example/demoModel";

describe("the demo's model (DEMO_MODEL)", () => {
  it("is the counting model by default, an AI SDK model with no network", () => {
    const warn = vi.fn();
    expect(demoModel({}, { warn })).toMatchObject({ specificationVersion: "v4", provider: "demo", modelId: "counting" });
    expect(warn).not.toHaveBeenCalled();
  });

  it("DEMO_MODEL=workers-ai without an AI binding: a log line names the fix, and the demo counts", () => {
    const warn = vi.fn();
    expect(demoModel({ DEMO_MODEL: "workers-ai" }, { warn })).toMatchObject({ modelId: "counting" });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/no AI binding.*\[ai\] binding = "AI"/));
  });

  it("DEMO_MODEL=workers-ai with the AI binding: Workers AI through its AI SDK provider (nothing is called until it streams)", () => {
    const binding = { run: vi.fn() } as unknown as Ai;
    const model = demoModel({ DEMO_MODEL: "workers-ai", AI: binding }, { warn: vi.fn() });
    expect(model).toMatchObject({ specificationVersion: "v4", modelId: WORKERS_AI_MODEL });
    expect(model.provider).toMatch(/workers-ai|workersai/i);
    expect(binding.run).not.toHaveBeenCalled();
  });
});
