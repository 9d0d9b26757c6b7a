import { parseFakeSlackFlags } from "../../src/testing/fakeSlackFlags";
import { startFakeSlackServer } from "./fakeSlackServer";

// The fake Slack Web API on its own, for the local demo (docs/tutorial.md "Try it with a signed request"): prints every call.
// npm run fake-slack [-- --port 8788 --stream-max-open-ms N --stream-max-chars N --enforce-tiers]
const { port, options } = parseFakeSlackFlags(process.argv.slice(2));
const server = await startFakeSlackServer({
  port,
  fake: options,
  onCall: (call) =>
    console.log(
      JSON.stringify({
        method: call.method,
        channel: call.channel,
        thread_ts: call.threadTs,
        ts: call.ts,
        text: call.text,
        outcome: call.outcome,
      }),
    ),
});
console.log(
  `fake Slack Web API on ${server.fake.apiUrl} — set SLACK_API_URL to it (and any SLACK_BOT_TOKEN=xoxb-…) in .dev.vars; its authorize page for OAuth mode is ${server.origin}/oauth/v2/authorize; Ctrl-C stops it`,
);
process.on("SIGINT", () => void server.close().then(() => process.exit(0)));
