import { App, createCoordinator } from "slack-durable-coordinator";

const app = new App();

// "@your-app hi" in a channel: the reply goes in the mention's thread.
app.event("app_mention", async ({ event, say }) => {
  await say({ text: `Hi! You said: ${event.text}`, thread_ts: event.thread_ts ?? event.ts });
});

// "/hello Ada": answered on the command's response_url, seen by its user only. Slack was
// acked when the command was recorded, so ack() does nothing here; Bolt code calls it anyway.
app.command("/hello", async ({ command, ack, respond }) => {
  await ack();
  await respond({ response_type: "ephemeral", text: `Hello, ${command.text || "world"}!` });
});

const { worker, Shard } = createCoordinator({ app });
// The shard's instance type under the class's name, as `wrangler types` reads the SHARD binding.
type Shard = InstanceType<typeof Shard>;

export { Shard };
export default worker;
