// The listeners of Slack's bolt-js-assistant-template (slack-samples), ported: each callback is the
// original's body, typed as a TypeScript user would; only the import, the App construction and the
// export differ, and the OpenAI call in callLLM is a deterministic stand-in (assistantTemplateModel.ts).
import {
  type ActionArgs,
  App,
  type AppMentionEvent,
  Assistant,
  type AssistantThreadContextChangedArgs,
  type AssistantThreadStartedArgs,
  type AssistantUserMessageArgs,
  type ChatStreamer,
  createCoordinator,
  type EventArgs,
  type RunArgs,
  type types,
} from "../../src/lib";
import { type ResponseEvent, scriptedResponses } from "./assistantTemplateModel";

export const app = new App();

/** listeners/views/feedback_block.js */
export const feedbackBlock: types.ContextActionsBlock = {
  type: "context_actions",
  elements: [
    {
      type: "feedback_buttons",
      action_id: "feedback",
      positive_button: {
        text: { type: "plain_text", text: "Good Response" },
        accessibility_label: "Submit positive feedback on this response",
        value: "good-feedback",
      },
      negative_button: {
        text: { type: "plain_text", text: "Bad Response" },
        accessibility_label: "Submit negative feedback on this response",
        value: "bad-feedback",
      },
    },
  ],
};

/** agent/tools/dice.js */
export function rollDice({ sides = 6, count = 1 }: { sides?: number; count?: number } = {}): {
  rolls: number[];
  total: number;
  description?: string;
  error?: string;
} {
  if (sides < 2) {
    return { error: "A die must have at least 2 sides", rolls: [], total: 0 };
  }
  if (count < 1) {
    return { error: "Must roll at least 1 die", rolls: [], total: 0 };
  }
  const rolls = Array.from({ length: count }, () => Math.floor(Math.random() * sides) + 1);
  const total = rolls.reduce((sum, roll) => sum + roll, 0);
  return { rolls, total, description: `Rolled a ${count}d${sides} to total ${total}` };
}

/** agent/llm-caller.js: the same control flow; `scriptedResponses` stands in for `openai.responses.create`. */
// biome-ignore lint/suspicious/noExplicitAny: the sample's prompts are OpenAI's response messages, typed `any[]` there too.
export async function callLLM(streamer: ChatStreamer, prompts: any[]): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: as the sample: OpenAI's function_call items.
  const toolCalls: any[] = [];

  const response: AsyncIterable<ResponseEvent> = scriptedResponses(prompts);

  for await (const event of response) {
    // Stream markdown text from the LLM response as it arrives
    if (event.type === "response.output_text.delta" && event.delta) {
      await streamer.append({
        markdown_text: event.delta,
      });
    }

    // Save function calls for later computation and a new task is shown
    if (event.type === "response.output_item.done") {
      if (event.item.type === "function_call") {
        toolCalls.push(event.item);

        if (event.item.name === "roll_dice") {
          const args = JSON.parse(event.item.arguments);
          await streamer.append({
            chunks: [
              {
                type: "task_update",
                id: event.item.call_id,
                title: `Rolling a ${args.count}d${args.sides}...`,
                status: "in_progress",
              },
            ],
          });
        }
      }
    }
  }

  // Perform tool calls and marks tasks as completed
  if (toolCalls.length > 0) {
    for (const call of toolCalls) {
      if (call.name === "roll_dice") {
        const args = JSON.parse(call.arguments);

        prompts.push({
          id: call.id,
          call_id: call.call_id,
          type: "function_call",
          name: "roll_dice",
          arguments: call.arguments,
        });

        const result = rollDice(args);

        prompts.push({
          type: "function_call_output",
          call_id: call.call_id,
          output: JSON.stringify(result),
        });

        if (result.error != null) {
          await streamer.append({
            chunks: [
              {
                type: "task_update",
                id: call.call_id,
                title: result.error,
                status: "error",
              },
            ],
          });
        } else {
          await streamer.append({
            chunks: [
              {
                type: "task_update",
                id: call.call_id,
                title: result.description ?? "Completed",
                status: "complete",
              },
            ],
          });
        }
      }
    }

    // complete the llm response after making tool calls
    await callLLM(streamer, prompts);
  }
}

/** listeners/assistant/assistant_thread_started.js */
export const assistantThreadStarted = async ({
  event,
  logger,
  say,
  setSuggestedPrompts,
  saveThreadContext,
}: AssistantThreadStartedArgs) => {
  const { context } = event.assistant_thread;

  try {
    await say("Hi, how can I help?");

    await saveThreadContext();

    if (!context.channel_id) {
      await setSuggestedPrompts({
        title: "Start with this suggested prompt:",
        prompts: [
          {
            title: "Prompt a task with thinking steps",
            message: "Wonder a few deep thoughts.",
          },
          {
            title: "Roll dice for a random number",
            message: "Roll two 12-sided dice and three 6-sided dice for a pseudo-random score.",
          },
        ],
      });
    }
  } catch (e) {
    logger.error(e);
  }
};

/** listeners/assistant/assistant_thread_context_changed.js */
export const assistantThreadContextChanged = async ({ logger, saveThreadContext }: AssistantThreadContextChangedArgs) => {
  try {
    await saveThreadContext();
  } catch (e) {
    logger.error(e);
  }
};

/** @param ms */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** listeners/assistant/message.js */
export const message = async ({ logger, message, say, sayStream, setStatus }: AssistantUserMessageArgs) => {
  if (!("text" in message) || !("thread_ts" in message) || !message.text || !message.thread_ts) {
    return;
  }

  try {
    // The first example shows a message with thinking steps that has different chunks to construct and update a plan alongside text outputs.
    if (message.text === "Wonder a few deep thoughts.") {
      await setStatus({
        status: "thinking...",
        loading_messages: [
          "Teaching the hamsters to type faster…",
          "Untangling the internet cables…",
          "Consulting the office goldfish…",
          "Polishing up the response just for you…",
          "Convincing the AI to stop overthinking…",
        ],
      });

      await sleep(4000);

      const streamer = sayStream({
        task_display_mode: "plan",
      });

      await streamer.append({
        chunks: [
          {
            type: "markdown_text",
            text: "Hello.\nI have received the task. ",
          },
          {
            type: "markdown_text",
            text: "This task appears manageable.\nThat is good.",
          },
          {
            type: "task_update",
            id: "001",
            title: "Understanding the task...",
            status: "in_progress",
            details: "- Identifying the goal\n- Identifying constraints",
          },
          {
            type: "task_update",
            id: "002",
            title: "Performing acrobatics...",
            status: "pending",
          },
        ],
      });

      await sleep(4000);

      await streamer.append({
        chunks: [
          {
            type: "plan_update",
            title: "Adding the final pieces...",
          },
          {
            type: "task_update",
            id: "001",
            title: "Understanding the task...",
            status: "complete",
            details: "\n- Pretending this was obvious",
            output: "We'll continue to ramble now",
          },
          {
            type: "task_update",
            id: "002",
            title: "Performing acrobatics...",
            status: "in_progress",
          },
        ],
      });

      await sleep(4000);

      await streamer.stop({
        chunks: [
          {
            type: "plan_update",
            title: "Decided to put on a show",
          },
          {
            type: "task_update",
            id: "002",
            title: "Performing acrobatics...",
            status: "complete",
            details: "- Jumped atop ropes\n- Juggled bowling pins\n- Rode a single wheel too",
          },
          {
            type: "markdown_text",
            text: "The crowd appears to be astounded and applauds :popcorn:",
          },
        ],
        blocks: [feedbackBlock],
      });
    } else {
      // This second example shows a generated text response for the provided prompt
      await setStatus({
        status: "thinking...",
        loading_messages: [
          "Teaching the hamsters to type faster…",
          "Untangling the internet cables…",
          "Consulting the office goldfish…",
          "Polishing up the response just for you…",
          "Convincing the AI to stop overthinking…",
        ],
      });

      const streamer = sayStream({
        task_display_mode: "timeline",
      });

      const prompts = [
        {
          role: "user",
          content: message.text,
        },
      ];

      await callLLM(streamer, prompts);
      await streamer.stop({ blocks: [feedbackBlock] });
    }
  } catch (e) {
    logger.error(`Failed to handle a user message event: ${e}`);
    await say(`:warning: Something went wrong! (${e})`);
  }
};

/** listeners/events/app_mention.js */
export const appMentionCallback = async ({ event, client, logger, say }: RunArgs<EventArgs<AppMentionEvent>>) => {
  try {
    const { channel, text, team, user } = event;
    const thread_ts = event.thread_ts || event.ts;

    await client.assistant.threads.setStatus({
      channel_id: channel,
      thread_ts: thread_ts,
      status: "thinking...",
      loading_messages: [
        "Teaching the hamsters to type faster…",
        "Untangling the internet cables…",
        "Consulting the office goldfish…",
        "Polishing up the response just for you…",
        "Convincing the AI to stop overthinking…",
      ],
    });

    const streamer = client.chatStream({
      channel: channel,
      recipient_team_id: team,
      recipient_user_id: user,
      thread_ts: thread_ts,
    });

    const prompts = [
      {
        role: "user",
        content: text,
      },
    ];

    await callLLM(streamer, prompts);

    await streamer.stop({ blocks: [feedbackBlock] });
  } catch (e) {
    logger.error(`Failed to handle a user message event: ${e}`);
    await say(`:warning: Something went wrong! (${e})`);
  }
};

/** listeners/actions/feedback.js */
export const feedbackActionCallback = async ({ ack, body, client, logger }: RunArgs<ActionArgs>) => {
  try {
    await ack();

    if (body.type !== "block_actions" || body.actions[0].type !== "feedback_buttons") {
      return;
    }

    const message_ts = body.message?.ts;
    const channel_id = body.channel?.id;
    if (!message_ts || !channel_id) {
      return;
    }
    const user_id = body.user.id;
    const value = body.actions[0].value;

    if (value === "good-feedback") {
      await client.chat.postEphemeral({
        channel: channel_id,
        user: user_id,
        thread_ts: message_ts,
        text: "We're glad you found this useful.",
      });
    } else {
      await client.chat.postEphemeral({
        channel: channel_id,
        user: user_id,
        thread_ts: message_ts,
        text: "Sorry to hear that response wasn't up to par :slightly_frowning_face: Starting a new chat may help with AI mistakes and hallucinations.",
      });
    }
  } catch (error) {
    logger.error(`:warning: Something went wrong! ${error}`);
  }
};

/** listeners/index.js: actions, events, assistant. */
app.action("feedback", feedbackActionCallback);
app.event("app_mention", appMentionCallback);
app.assistant(
  new Assistant({
    threadStarted: assistantThreadStarted,
    threadContextChanged: assistantThreadContextChanged,
    userMessage: message,
  }),
);

const { worker, Shard, Installations } = createCoordinator({ app });

export { Installations, Shard };
export default worker;
