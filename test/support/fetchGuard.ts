import { afterEach, beforeEach, vi } from "vitest";

// Vitest setup file: nothing a test runs may reach a real host. Any fetch a test has not
// routed to a fake fails like an unreachable network, which is how Slack being down looks.
beforeEach(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    throw new TypeError(`outbound fetch blocked in tests: ${url}`);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
