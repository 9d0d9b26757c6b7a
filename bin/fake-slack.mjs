#!/usr/bin/env node
// `npx slack-fake [--port 8788] [--stream-max-open-ms N] [--stream-max-chars N] [--enforce-tiers]`:
// the test kit's FakeSlack as a local HTTP server on 127.0.0.1, for `wrangler dev`. Set
// SLACK_API_URL to the printed URL; every call is printed as a JSON line.
import { createServer } from "node:http";
import { FakeSlack, parseFakeSlackFlags } from "../dist/testing.js";

let flags;
try {
  flags = parseFakeSlackFlags(process.argv.slice(2));
} catch (error) {
  console.error(`slack-fake: ${error.message}`);
  process.exit(2);
}
const { port, options } = flags;
let fake;

const server = createServer(async (incoming, outgoing) => {
  const chunks = [];
  for await (const chunk of incoming) chunks.push(chunk);
  // A hang ends when the caller gives up (closes the connection).
  const abort = new AbortController();
  outgoing.on("close", () => abort.abort());
  try {
    const request = new Request(`${fake.origin}${incoming.url}`, {
      method: incoming.method,
      headers: Object.entries(incoming.headers).map(([name, value]) => [name, String(value)]),
      body: incoming.method === "GET" || incoming.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const response = await fake.handle(request, abort.signal);
    const call = fake.calls.findLast((made) => made.url === request.url);
    if (call) console.log(JSON.stringify({ method: call.method, body: call.body, outcome: call.outcome }));
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    if (!abort.signal.aborted) console.error(`fake Slack: ${error?.stack ?? error}`);
    outgoing.destroy();
  }
});

server.listen(port, "127.0.0.1", () => {
  fake = new FakeSlack({ ...options, origin: `http://127.0.0.1:${server.address().port}` });
  console.log(`fake Slack Web API on ${fake.apiUrl} — set SLACK_API_URL to it; Ctrl-C stops it`);
});
process.on("SIGINT", () => server.close(() => process.exit(0)));
