import { beforeEach, vi } from "vitest";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { FAKE_SLACK_ORIGIN } from "./testBindings";

/** Routes the Worker's and shards' fetches (same isolate as the tests) to a fresh fake Slack per test. */
export function useFakeSlack(): () => FakeSlack {
  let fake = new FakeSlack(FAKE_SLACK_ORIGIN);
  beforeEach(() => {
    fake = new FakeSlack(FAKE_SLACK_ORIGIN);
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!fake.serves(url)) throw new TypeError(`outbound fetch blocked in tests: ${url}`);
      return fake.fetch(input, init);
    });
  });
  return () => fake;
}
