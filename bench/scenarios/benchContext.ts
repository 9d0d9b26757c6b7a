import type { FakeSlackServer } from "../fakeSlack/fakeSlackServer";
import type { LoadClient } from "../load/loadClient";

/** What every scenario shares: the load process, the fake Web API and a run counter for unique channels. */
export interface BenchContext {
  load: LoadClient;
  fake: FakeSlackServer;
  nextRunId(): string;
}
