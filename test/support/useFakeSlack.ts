import { beforeEach, vi } from "vitest";
import { FakeSlackApi } from "./fakeSlackApi";
import { FAKE_SLACK_ORIGIN } from "./testBindings";

/** Routes the Worker's and shards' fetches (same isolate as the tests) to a fresh fake Slack per test. */
export function useFakeSlack(): () => FakeSlackApi {
  let fake = new FakeSlackApi(FAKE_SLACK_ORIGIN);
  beforeEach(() => {
    fake = new FakeSlackApi(FAKE_SLACK_ORIGIN);
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (!fake.serves(request.url)) throw new TypeError(`outbound fetch blocked in tests: ${request.url}`);
      return fake.handle(request, init?.signal ?? (input instanceof Request ? input.signal : null));
    });
  });
  return () => fake;
}
