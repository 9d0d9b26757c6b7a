import { App, createCoordinator } from "product:src/lib.ts";
import { COUNT_REQUEST, SLEEP_REQUEST } from "../effects/countedAnswer";

// The coordinator with the bench's own streaming app (`npm run chaos`, the bench's stream
// scenarios): "<@bot> count to N every P" streams "1 2 … N" with sayStream(), one number per
// append and P ms between them; any other mention gets the example's placeholder, then the answer
// in place ("answer after MS": a durable sleep of MS between them), so chaos can mix them all. Deterministic, so a read-back can compare the exact text.

const app = new App();

app.event("app_mention", {
  // As the example app: a mention is answered once per message (fact dedupe).
  dedupe: "fact",
  async run({ event, say, sayStream, client, step, attempt, sleep }) {
    const thread_ts = event.thread_ts ?? event.ts;
    const asked = COUNT_REQUEST.exec(event.text ?? "");
    if (!asked) {
      const placeholder = await step("placeholder", () => say({ text: "Working on it…", thread_ts }));
      // The run suspends here (no lease, isolate or slot held) and goes on from its checkpoint.
      const sleepMs = SLEEP_REQUEST.exec(event.text ?? "");
      if (sleepMs) await sleep("before-answer", Number(sleepMs[1]));
      await client.chat.update({ channel: event.channel, ts: placeholder.ts, text: `Answered ${event.ts}` });
      return;
    }
    const n = Number(asked[1]);
    const pauseMs = Number(asked[2] ?? 0);
    const streamer = sayStream();
    // For the bench's latency split: when the first append came, and when its flush was due (at once: sayStream sends its first text unbuffered).
    const mark = (what: string) =>
      console.log(JSON.stringify({ msg: `bench stream ${what}`, at: Date.now(), channel: event.channel, thread_ts, attempt }));
    for (let i = 1; i <= n; i++) {
      const text = i === 1 ? "1" : ` ${i}`;
      // Date.now() is the time of the isolate's last I/O: at most a few ms early.
      if (i === 1) mark("first append");
      if (i === 1) mark("first flush due");
      await streamer.append({ markdown_text: text });
      if (pauseMs > 0) await new Promise((resume) => setTimeout(resume, pauseMs));
    }
    await streamer.stop();
  },
});

const { worker, Shard, Installations } = createCoordinator({ app });

// Installations: the bench's stream scenarios run it in OAuth mode, a token per workspace as Slack's tiers are counted.
export { Installations, Shard };
export default worker;
