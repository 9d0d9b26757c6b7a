import { createCoordinator } from "product:src/coordinator.ts";

// The coordinator with an app that plans no effects: verify, parse, one ingest RPC and its
// receipt, the ack — nothing delivered. Between the floor and the full coordinator, it splits
// the cost per event into "record durably" and "deliver the effects".
const { worker, Shard } = createCoordinator({ app: { plan: () => ({ effects: [] }) } });

export { Shard };
export default worker;
