import { isStepCount, jsonSchema, streamText, tool } from "ai";
import { type App, Assistant, type KnownBlock, type RunArgs } from "../lib";
import { demoModel } from "./demoModel";
import { reminderRequest, remindLater } from "./reminders";
import { wordCountReply } from "./wordCount";

/** The most the agent counts to without asking: 500 numbers take 25 seconds at the model's pace. */
export const COUNT_LIMIT = 500;
/** The most it counts to at all, once the user said yes to its question. */
export const CONFIRMED_COUNT_LIMIT = 2000;
/** How long the question waits for a click, unless DEMO_CONFIRM_TIMEOUT_MS says (ms). */
export const CONFIRM_TIMEOUT_MS = 600_000;

/** N of "count to N" in a message's text, or undefined when it asks something else. */
export function countRequest(text: string | undefined): number | undefined {
  const asked = /\bcount to (\d+)\b/i.exec(text ?? "");
  return asked ? Number(asked[1]) : undefined;
}

/** Shown under the reply once it is complete; a click reaches app.action("answer_feedback"). */
const FEEDBACK: KnownBlock[] = [
  {
    type: "context_actions",
    elements: [
      {
        type: "feedback_buttons",
        action_id: "answer_feedback",
        positive_button: { text: { type: "plain_text", text: "Good answer" }, value: "good" },
        negative_button: { text: { type: "plain_text", text: "Bad answer" }, value: "bad" },
      },
    ],
  },
];

/** What the reply needs of a run: a channel mention's and an assistant thread's runs both have it. */
type ReplyArgs = Pick<RunArgs, "sayStream" | "setStatus" | "signal" | "env" | "logger" | "waitForAction">;

/** The model's one tool: it checks the count asked for (the model then writes the numbers). */
const count = tool({
  description: "Checks a count the user asked for before it is written out",
  inputSchema: jsonSchema<{ to: number }>({ type: "object", properties: { to: { type: "number" } }, required: ["to"] }),
  execute: async ({ to }) => ({ to, ok: to >= 1 && to <= CONFIRMED_COUNT_LIMIT }),
});

/**
 * Replies to "count to N" in the thread with a stream alone (no placeholder): a status while the
 * model works, its `count` tool call as a task, the tokens as they come, then feedback buttons.
 * The model is an AI SDK model (demoModel.ts) piped into the reply; the stop button, or the
 * reply's cap, aborts the stream's `signal`, which ends the model's generation; the coordinator
 * closes the stream and sets the session `active`.
 */
export async function countingReply(args: ReplyArgs, n: number): Promise<void> {
  const { sayStream, setStatus, env, logger } = args;
  if (n < 1 || n > CONFIRMED_COUNT_LIMIT) {
    await sayStream().stop({ markdown_text: `I count from 1 to ${CONFIRMED_COUNT_LIMIT}, one number at a time.` });
    return;
  }
  if (n > COUNT_LIMIT && !(await confirmed(args, n))) return;
  await setStatus({ status: "is counting…", loading_messages: [`Counting to ${n}…`] });
  // About one flush a second at the model's pace: the user sees it grow, well within Slack's append tier.
  const stream = sayStream({ buffer_size: 64 });
  const result = streamText({
    model: demoModel(env, logger),
    system:
      "Count as asked: check the count with the count tool, then write the numbers separated by single spaces, nothing else.",
    prompt: `count to ${n}`,
    tools: { count },
    stopWhen: isStepCount(2),
    // The stop button (the run's signal) or the reply's cap aborts the stream's: the model's request ends with it.
    abortSignal: stream.signal,
  });
  await stream.pipe(result, { task: () => ({ title: `Counting to ${n}` }) });
  await stream.stop({ blocks: FEEDBACK });
}

/**
 * Over COUNT_LIMIT the agent asks first, with two buttons, and waits for the click durably (no
 * isolate held, across deploys and restarts) up to DEMO_CONFIRM_TIMEOUT_MS: yes counts; no, or
 * no answer in time, is one short message. The stop button cancels the question.
 */
async function confirmed(args: ReplyArgs, n: number): Promise<boolean> {
  const timeoutMs = Number(args.env.DEMO_CONFIRM_TIMEOUT_MS ?? CONFIRM_TIMEOUT_MS) || CONFIRM_TIMEOUT_MS;
  const answer = await args.waitForAction("count_confirm", {
    text: `Counting to ${n} takes ${Math.ceil(n / 20)} seconds. Shall I?`,
    buttons: [
      { text: "Yes, count", value: "yes", action_id: "count_confirm", style: "primary" },
      { text: "No", value: "no", action_id: "count_confirm" },
    ],
    timeoutMs,
  });
  if (!answer.timedOut && answer.value === "yes") return true;
  const why = answer.timedOut ? "No answer, so I did not count." : "All right, I will not count.";
  await args.sayStream().stop({ markdown_text: why });
  return false;
}

/** What the demo offers to ask, over a new thread (assistant view) or atop its Messages tab (agent view). */
const PROMPTS = [
  { title: "Count to 30", message: "count to 30" },
  { title: "Count to 500", message: "count to 500" },
];

/**
 * The demo as an agent: in the app's DM (under the agent view a message that starts its own
 * thread, or an assistant thread) "count to N" is answered by the model, anything else with a
 * word count; the Messages tab and a new assistant thread offer prompts; feedback clicks are
 * thanked. Channel mentions reach countingReply from the mention listener.
 */
export function addAgent(app: App): App {
  return app
    .assistant(
      new Assistant({
        async threadStarted({ say, setSuggestedPrompts, step }) {
          await step("greeting", () => say("Hi! I count, one number at a time. Ask me to “count to 30”."));
          await setSuggestedPrompts({ prompts: PROMPTS });
        },
        // Agent view: the user opened the app's Messages tab; the prompts sit atop it, in no thread.
        async messagesTabOpened({ setSuggestedPrompts }) {
          await setSuggestedPrompts({ title: "I count, one number at a time", prompts: PROMPTS });
        },
        async userMessage(args) {
          const { event } = args;
          const n = countRequest(event.text);
          const reminder = reminderRequest(event.text);
          if (n !== undefined) await countingReply(args, n);
          else if (reminder) await remindLater(args, event.thread_ts ?? event.ts, reminder);
          else await args.say(wordCountReply(event.text ?? ""));
        },
      }),
      // The agent view's words in the manifest: what the agent does, and the prompts it offers.
      { description: "Counts to N, one number at a time, streamed", suggested_prompts: PROMPTS },
    )
    .action("answer_feedback", async ({ action, body, client }) => {
      // Only the user who clicked sees the thanks, in the reply's thread.
      await client.chat.postEphemeral({
        channel: body.channel!.id,
        user: body.user.id,
        thread_ts: body.message?.thread_ts ?? body.message?.ts,
        text: action.value === "good" ? "Thanks, glad it helped!" : "Thanks for telling me: I will count better.",
      });
    });
}
