// The demo uses only the library's public entry, as an app in its own Worker would.
import { App, ownBotUser, type ViewOutput } from "../lib";
import { addAgent, countingReply, countRequest } from "./agent";
import { reminderRequest, remindLater } from "./reminders";
import { wordCountReply } from "./wordCount";

/**
 * The demo served by `npm start`, and the shape of a real app:
 * - a mention gets a placeholder reply in its thread at once, then the word count in place;
 * - "count to N", mentioned in a channel or written in the app's DM, is replied to by a stand-in
 *   model as an agent would reply: streamed, with a status, a stop button and feedback (agent.ts);
 *   over 500 it asks first, with buttons, and waits for the click durably;
 * - "remind me in S seconds to X" sleeps durably, then reminds in the thread (reminders.ts);
 * - `/echo TEXT` answers TEXT on the command's response_url;
 * - the reply carries a button that updates its message when clicked;
 * - `/feedback` opens a modal whose submission is validated in `ack` and processed in `run`;
 * - the custom workflow step `count_words` completes with the word count of its `text` input.
 */
export const exampleApp = addAgent(
  new App({
    // Its part of the manifest (`npx slack-durable-coordinator manifest --url …`): the rest comes from the listeners.
    manifest: { name: "Durable demo", description: "Counts, one number at a time — durably, on Cloudflare." },
  }),
);

exampleApp.event(["app_mention", "message"], {
  // A mention in a channel where the app also reads messages arrives twice — as app_mention
  // and as message, with two event_ids. Fact dedupe answers the message once.
  dedupe: "fact",
  // The app's DM is the assistant's (agent.ts).
  when: ({ event, inbound }) =>
    !("channel_type" in event && event.channel_type === "im") &&
    (event.type === "app_mention" || (event.text ?? "").includes(`<@${ownBotUser(inbound)}>`)),
  async run(args) {
    const { event, client, say, step } = args;
    const count = countRequest(event.text);
    if (count !== undefined) return countingReply(args, count);
    const { channel } = event;
    const thread_ts = event.thread_ts ?? event.ts;
    const reminder = reminderRequest(event.text);
    if (reminder) return remindLater(args, thread_ts, reminder);
    // Each step runs once: a retried run reuses the placeholder's ts and updates it instead
    // of posting a second placeholder. (`say` posts in the event's channel and answers its ts.)
    // A step that only posts costs no row of its own: the post is found again if a crash
    // repeats it (docs/reference/app-api.md "When a step is written").
    const placeholder = await step("placeholder", () => say({ text: "Working on it…", thread_ts }));
    // The slow call goes here. A real one (an LLM, a search) belongs in its own step, e.g.
    //   const answer = await step("answer", () => llm.complete(prompt));
    // so a retry after a later failure does not pay for it twice. This one is instant and
    // deterministic, so it is simply recomputed: every checkpoint costs a row written.
    const reply = wordCountReply(event.text ?? "");
    // Last step, no checkpoint needed: chat.update of a known ts is idempotent by shape.
    await client.chat.update({
      channel,
      ts: placeholder.ts,
      text: reply,
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: reply } },
        {
          type: "actions",
          elements: [
            { type: "button", action_id: "answer_helpful", text: { type: "plain_text", text: "Helpful" }, value: "yes" },
          ],
        },
      ],
    });
  },
});

exampleApp.command("/echo", { description: "Answers your text back", usage_hint: "TEXT" }, async ({ command, respond }) => {
  await respond({ response_type: "ephemeral", text: command.text });
});

exampleApp.action("answer_helpful", async ({ body, client }) => {
  // The button sits in a message, so Slack sends the message and its channel.
  await client.chat.update({
    channel: body.channel!.id,
    ts: body.message!.ts,
    text: `Marked helpful by <@${body.user.id}>.`,
    blocks: [],
  });
});

exampleApp.command(
  "/feedback",
  { description: "Tell us what to improve" },
  {
    ack: () => "Opening the feedback form…",
    async run({ command, client, step }) {
      // trigger_id lives 3 seconds: views.open gets only this attempt's chance (docs/reference/app-api.md "Expiring handles").
      await step("open", () =>
        client.views.open({
          trigger_id: command.trigger_id,
          view: {
            type: "modal",
            callback_id: "feedback_modal",
            title: { type: "plain_text", text: "Feedback" },
            submit: { type: "plain_text", text: "Send" },
            blocks: [
              {
                type: "input",
                block_id: "feedback",
                label: { type: "plain_text", text: "What should we improve?" },
                element: { type: "plain_text_input", action_id: "text", multiline: true },
              },
            ],
          },
        }),
      );
    },
  },
);

function feedbackText(view: ViewOutput): string {
  return view.state.values.feedback?.text?.value?.trim() ?? "";
}

exampleApp.view("feedback_modal", {
  // Validation belongs in ack: Slack shows these errors in the still-open modal.
  ack: ({ view }) =>
    feedbackText(view).length < 3
      ? { response_action: "errors", errors: { feedback: "Please write at least 3 characters." } }
      : undefined,
  async run({ view, body, client, step }) {
    await step("thank", () =>
      client.chat.postMessage({ channel: body.user.id, text: `Thanks for your feedback: “${feedbackText(view)}”` }),
    );
  },
});

// A custom workflow step: a function with this callback_id in the app's manifest, with a `text`
// input and a `summary` output, declared here for it. complete() is sent once, with the step's own token.
const COUNT_WORDS = {
  title: "Count words",
  description: "Counts the words of a text",
  input_parameters: {
    properties: { text: { type: "string", title: "Text", description: "The text to count" } },
    required: ["text"],
  },
  output_parameters: { properties: { summary: { type: "string", title: "Summary" } }, required: ["summary"] },
};

exampleApp.function("count_words", COUNT_WORDS, async ({ inputs, complete }) => {
  await complete({ outputs: { summary: wordCountReply(String(inputs.text ?? "")) } });
});
