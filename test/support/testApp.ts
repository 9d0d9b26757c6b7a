import { App } from "../../src/app/App";
import { Assistant } from "../../src/app/assistant/assistant";
import { SearchRefused } from "../../src/app/search";
import { RetryableError } from "../../src/platform/errors";
import { withWorkObjects } from "./workObjectListeners";

/**
 * The app the engine's tests run (test/worker.ts): one small listener per behaviour under test.
 * - a mention gets one reply in its thread;
 * - `/echo TEXT` answers TEXT on the response_url;
 * - `/crash` has a handler with a bug (a TypeError of its own);
 * - `member_joined_channel` (also when the bot itself joins) gets a welcome;
 * - a message containing "ping" gets "pong" in its channel;
 * - a message containing "replay me" is answered "answered late" whatever its age (`maxEventAgeMs: Infinity`);
 * - `turns: "merge"`: a user's quick messages starting "burst " are answered once, "heard N: TEXT | TEXT …";
 * - `limits`: a user's messages starting "budget " are answered "budgeted: TEXT", 2 a minute per user (then Slack's ephemeral);
 * - `/whois` looks its invoker up with the typed client (`users.info`) and answers the real name;
 * - `/report TEXT` uploads TEXT as a file to the command's channel (`files.uploadV2`);
 * - `/later TEXT` fails its first 5 attempts before it answers TEXT on the response_url;
 * - `team_access_granted` (workspaces added to an org install) is listened to, doing nothing.
 * - `pin_added` (Slack's optional scopes: `scopes: "optional"`, so `pins:read` may be declined) says "pinned" in its channel;
 * - "search for Q" searches Q as the installing user (`context.userToken`, OAuth mode), or says it has no user token;
 * - "look up Q" searches Q with the message's action_token (`search`, the Real-time Search API) and says what it found, or the refusal's code;
 * - misuse no retry can cure: `team_join` calls say() (no channel), `app_home_opened` calls
 *   respond() (no response_url), `/badstep` names a step "fetch user" (a space), `/bigstep`
 *   returns a BigInt from its step; `/hugestep` returns 2.5 MB from its step and `/growstep` two
 *   steps of 1.2 MB (past Cloudflare's 2 MB for a row: refused, never run again: `bigStepRuns`);
 * - `/fail TEXT` throws an Error saying TEXT (a handler quoting outside data in its error).
 * - "answer carefully" is Slack's samples' shape: it says "thinking…" then "done thinking" inside a
 *   `try`, whose `catch` logs at error and says ":warning: Something went wrong!".
 * - a run's Bolt arguments: "count to N" says "counted to N" (`context.matches`), "context please"
 *   says its `context`, "env please" says the DELIVERY_TIMEOUT_MS binding, "ack plain" calls
 *   `ack()` then says "acked", "ack with body" calls `ack({ text })` (misuse).
 * - custom steps: `greet` posts "working" (in a step) and completes with a greeting, then fails
 *   its first attempt; `refuse` fails with "not today"; `broken` throws until parked; a
 *   `step_approve` click or a `step_form` submission completes the step they came from.
 * - an options load of the external select `pick_team_env` lists the environments starting with what was typed;
 * - an agent conversation's other deliveries are listened to, doing nothing: `assistant_thread_started`,
 *   `agent_session_stopped`, a click on a `stop_answer` button.
 * - the assistant (`app.assistant`): a thread started is greeted in it, with suggested prompts and a
 *   title; a user's DM message is answered with the thread's saved context ("title X" / "title! X" titles
 *   its thread, the second over the user's title); a Messages tab opened is greeted; a session the user
 *   renamed is told its new and previous title.
 * - Work Objects (test/support/workObjectListeners.ts): a flexpane presented, a link shared unfurled.
 */
export const testApp = new App();
withWorkObjects(testApp);

testApp.event("app_mention", async ({ event, say }) => {
  await say({ text: "reply", thread_ts: String(event!.ts) });
});

testApp.event("pin_added", {
  scopes: "optional",
  run: async ({ event, client }) => {
    await client.chat.postMessage({ channel: event!.channel_id, text: "pinned" });
  },
});

testApp.command("/echo", async ({ command, respond }) => {
  await respond({ response_type: "ephemeral", text: command!.text ?? "" });
});

testApp.command("/crash", async ({ command }) => {
  // A plain bug: reading a property of something that is not there.
  (command as unknown as { missing: { field: string } }).missing.field.toUpperCase();
});

testApp.event("member_joined_channel", async ({ event, say }) => {
  await say(`welcome <@${String(event!.user)}>`);
});

testApp.event("team_access_granted", async () => {});

testApp.message("ping", async ({ say }) => {
  await say("pong");
});

// Late events (docs/reference/app-api.md#late-events): this one answers Slack's backlog of any age.
testApp.message("replay me", {
  maxEventAgeMs: Number.POSITIVE_INFINITY,
  run: async ({ say }) => void (await say("answered late")),
});

// One answer to a burst of messages (issue 41): every message of the burst, oldest first.
testApp.message(/^burst /, {
  turns: "merge",
  run: async ({ messages, say }) => void (await say(`heard ${messages!.length}: ${messages!.map((m) => m.text).join(" | ")}`)),
});

// A turn budget (issue 41): 2 turns a minute per user, the rest refused with the ephemeral.
testApp.message(/^budget /, {
  limits: { turnsPerUser: { perMinute: 2 } },
  run: async ({ message, say }) => void (await say(`budgeted: ${(message as { text?: string }).text}`)),
});

testApp.message(/^search for (.+)$/, async ({ context, client, say }) => {
  if (!context.userToken) return void (await say("no user token"));
  const query = context.matches![1]!;
  const found = await client.search.messages({ token: context.userToken, query, sort: "timestamp", sort_dir: "desc" });
  await say(`searched as the installing user: ${found.ok}`);
});

testApp.message(/^look up (.+)$/, async ({ context, search, say }) => {
  const found = await search(context.matches![1]!).catch((error: unknown) => {
    if (error instanceof SearchRefused) return error.code;
    throw error;
  });
  await say(
    typeof found === "string" ? `refused: ${found}` : `found: ${found.results.messages?.map((m) => m.content).join(" | ")}`,
  );
});

testApp.command("/whois", async ({ command, client, respond }) => {
  const { user } = await client.users.info({ user: command!.user_id! });
  await respond(user?.real_name ?? "unknown");
});

testApp.command("/report", async ({ command, client }) => {
  await client.files.uploadV2({
    channel_id: command!.channel_id,
    filename: "report.txt",
    title: "Report",
    content: command!.text ?? "",
  });
});

testApp.command("/later", async ({ command, attempt, respond }) => {
  if (attempt <= 5) throw new RetryableError(`not ready on attempt ${attempt}`);
  await respond(command!.text ?? "");
});

testApp.event("team_join", async ({ say }) => {
  await say("welcome to the workspace");
});

testApp.event("app_home_opened", async ({ respond }) => {
  await respond("hello from home");
});

testApp.command("/badstep", async ({ step }) => {
  await step("fetch user", () => "U1");
});

testApp.command("/bigstep", async ({ step }) => {
  await step("count", () => BigInt(1));
});

/** Times the steps past the row limit ran (`/hugestep`'s, `/growstep`'s second). */
export const bigStepRuns = { count: 0 };

testApp.command("/hugestep", async ({ step }) => {
  await step("model-answer", () => {
    bigStepRuns.count++;
    return "x".repeat(2_500_000);
  });
});

testApp.command("/growstep", async ({ step }) => {
  await step("first-half", () => "a".repeat(1_200_000));
  await step("second-half", () => {
    bigStepRuns.count++;
    return "b".repeat(1_200_000);
  });
});

testApp.command("/fail", async ({ command }) => {
  throw new Error(command!.text ?? "");
});

testApp.message("answer carefully", async ({ say, logger }) => {
  try {
    await say("thinking…");
    await say("done thinking");
  } catch (error) {
    logger.error(`Failed to handle a message: ${error}`);
    await say(`:warning: Something went wrong! (${error})`);
  }
});

// A delivery with a step, a log line and two Slack calls: what its spans and log lines name (test/operations/traces.test.ts).
testApp.message("trace me", async ({ message, say, step, logger }) => {
  const channel = await step("where", () => String(message!.channel));
  logger.info("tracing", { channel });
  await say("traced");
  await say("traced again");
});

testApp.message(/^count to (\d+)$/, async ({ context, say }) => {
  await say(`counted to ${context.matches[1]}`);
});

testApp.message("context please", async ({ context, say }) => {
  const { teamId, enterpriseId, botUserId, userId, retryNum, retryReason } = context;
  await say(`team=${teamId} enterprise=${enterpriseId} bot=${botUserId} user=${userId} retry=${retryNum} ${retryReason}`);
});

testApp.message("env please", async ({ env, say }) => {
  await say(String(env.DELIVERY_TIMEOUT_MS));
});

testApp.message("ack plain", async ({ ack, say }) => {
  await ack();
  await say("acked");
});

testApp.message("ack with body", async ({ ack }) => {
  // @ts-expect-error a body in run does not compile; JavaScript code gets the run-time refusal tested with this.
  await ack({ text: "too late" });
});

testApp.function("greet", async ({ inputs, client, step, complete, attempt }) => {
  await step("post", () => client.chat.postMessage({ channel: "C0000TEST", text: "working" }).then(() => null));
  await complete({ outputs: { greeting: `hello ${String(inputs.user_id)}` } });
  if (attempt === 1) throw new RetryableError("retried after completing");
});

testApp.function("refuse", async ({ fail }) => {
  await fail({ error: "not today" });
});

testApp.function("broken", async () => {
  throw new Error("the step is broken");
});

testApp.action("step_approve", async ({ action, complete }) => {
  await complete?.({ outputs: { approved: action.value } });
});

testApp.view("step_form", async ({ view, complete }) => {
  await complete?.({ outputs: { answer: view.state.values.b1?.a1?.value } });
});

testApp.event(["assistant_thread_started", "agent_session_stopped"], async () => {});

testApp.action("stop_answer", async () => {});

// An external select's options: the environments whose name starts with what the user typed.
testApp.options("pick_team_env", {
  ack: ({ body }) => ({
    options: ["production", "preview", "staging"]
      .filter((env) => env.startsWith(body.value))
      .map((env) => ({ text: { type: "plain_text", text: env }, value: env })),
  }),
});

// The assistant: a greeting and prompts when a thread starts, its context saved when it changes
// (the default), the user's messages answered with the thread's saved context; the agent view's Messages tab greeted.
testApp.assistant(
  new Assistant({
    threadStarted: async ({ say, setSuggestedPrompts, setTitle }) => {
      await say("How can I help?");
      await setSuggestedPrompts({ title: "Try these", prompts: [{ title: "Summarise", message: "summarise this channel" }] });
      await setTitle("A new chat");
    },
    userMessage: async ({ event, say, getThreadContext, setStatus, setTitle }) => {
      // "title X" titles the thread (left alone when its user chose its title), "title! X" overwrites.
      const retitle = /^title(!?) (.+)$/.exec(event.text ?? "");
      if (retitle) await setTitle(retitle[2]!, { overwrite: retitle[1] === "!" });
      await setStatus("is thinking…");
      const { channel_id } = await getThreadContext();
      await say(`you said "${event.text}" while viewing ${channel_id ?? "nothing"}`);
    },
    titleChanged: async ({ event, say }) => {
      await say(`renamed to "${event.title}" from "${event.previous_title ?? "nothing"}"`);
    },
    messagesTabOpened: async ({ say, setSuggestedPrompts }) => {
      await say("welcome to the Messages tab");
      await setSuggestedPrompts({ prompts: [{ title: "Start", message: "hello" }] });
    },
  }),
);
