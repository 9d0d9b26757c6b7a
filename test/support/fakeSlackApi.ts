// The repository's tests, bench and `npm run fake-slack` use the public test kit's fake (src/testing/).
export type { CallMatch, Fault, RecordedCall } from "../../src/testing/fakeSlack";
export { FakeSlack as FakeSlackApi } from "../../src/testing/fakeSlack";
