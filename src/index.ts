import { exampleApp } from "./example/app";
import { createCoordinator } from "./lib";

// The deployed Worker: the coordinator serving the example app. Swap in your own app here.
const { worker, Shard, Installations } = createCoordinator({ app: exampleApp });
type Shard = InstanceType<typeof Shard>;

export { Installations, Shard };
export default worker;
