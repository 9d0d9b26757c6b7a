import { createCoordinator } from "../src/coordinator";
import { testApp } from "./support/testApp";

// The Worker the engine's tests drive: the coordinator serving the test app, so the demo
// (src/example/app.ts) stays free to change.
const { worker, Shard, Installations } = createCoordinator({ app: testApp });
type Shard = InstanceType<typeof Shard>;

export { Installations, Shard };
export default worker;
