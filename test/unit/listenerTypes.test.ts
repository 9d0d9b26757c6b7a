import type { AppMentionEvent, GenericMessageEvent, ReactionAddedEvent } from "@slack/types";
import { describe, expectTypeOf, it } from "vitest";
import { App } from "../../src/app/App";
import type {
  BlockElementAction,
  BlockSuggestionBody,
  FunctionCompleteArguments,
  FunctionCompletion,
  FunctionExecutedEvent,
  FunctionInputs,
  SayArguments,
  SlashCommand,
  ViewOutput,
} from "../../src/lib";

// Compile-time checks: `npx tsc --noEmit` fails when a listener's arguments lose their payload
// types. The listeners are registered, never run; vitest only sees that the file loads.
describe("listener argument types", () => {
  const app = new App();

  it("an event listener gets that event's payload, non-optional", () => {
    app.event("app_mention", async ({ event, body }) => {
      expectTypeOf(event).toEqualTypeOf<AppMentionEvent>();
      expectTypeOf(event.channel).toEqualTypeOf<string>();
      expectTypeOf(body.event_id).toEqualTypeOf<string>();
    });
    app.event("reaction_added", ({ event }) => {
      expectTypeOf(event).toEqualTypeOf<ReactionAddedEvent>();
    });
    app.event(["app_mention", "message"], {
      when: ({ event }) => event.type === "app_mention" || event.channel_type === "im",
      run: ({ event }) => {
        expectTypeOf(event).toEqualTypeOf<AppMentionEvent | GenericMessageEvent>();
      },
    });
  });

  it("a message listener gets a plain user message; subtypes only when it asks for them", () => {
    app.message("hello", async ({ event }) => {
      expectTypeOf(event.user).toEqualTypeOf<string>();
      expectTypeOf(event.text).toEqualTypeOf<string | undefined>();
      expectTypeOf(event.channel).toEqualTypeOf<string>();
      expectTypeOf(event.ts).toEqualTypeOf<string>();
    });
    app.message({
      subtypes: ["message_changed"],
      run: ({ event }) => {
        if (event.subtype === "message_changed") expectTypeOf(event.message).not.toBeAny();
        // @ts-expect-error a subtyped message need not have a user
        expectTypeOf(event.user).toEqualTypeOf<string>();
      },
    });
  });

  it("a RegExp message listener has context.matches; every run has context, logger, env and ack", () => {
    app.message(/^(\w+) to (\d+)$/, async ({ context, logger, env, ack }) => {
      expectTypeOf(context.matches).toEqualTypeOf<RegExpMatchArray>();
      expectTypeOf(context.matches[2]).toEqualTypeOf<string | undefined>();
      expectTypeOf(context.teamId).toEqualTypeOf<string | undefined>();
      expectTypeOf(context.retryNum).toEqualTypeOf<number | undefined>();
      // As Bolt's: an error alone, a message with fields, values of any kind.
      expectTypeOf(logger.error).toBeCallableWith(new Error("boom"));
      expectTypeOf(logger.info).toBeCallableWith("sent", { ts: "1.1" });
      expectTypeOf(logger.warn).toBeCallableWith("retrying in", 3, "s");
      expectTypeOf(env).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(ack).returns.toEqualTypeOf<Promise<void>>();
    });
    app.message("hello", async ({ context }) => {
      expectTypeOf(context.matches).toEqualTypeOf<RegExpMatchArray | undefined>();
    });
  });

  it("commands, actions, views and shortcuts get their payloads", () => {
    app.command("/echo", async ({ command, respond }) => {
      expectTypeOf(command).toEqualTypeOf<SlashCommand>();
      expectTypeOf(command.text).toEqualTypeOf<string>();
      expectTypeOf(command.trigger_id).toEqualTypeOf<string>();
      await respond({ response_type: "ephemeral", text: command.text });
    });
    app.action("approve", async ({ body, action }) => {
      expectTypeOf(body.user.id).toEqualTypeOf<string>();
      expectTypeOf(action).toEqualTypeOf<BlockElementAction>();
      expectTypeOf(action.action_id).toEqualTypeOf<string>();
      expectTypeOf(action.value).toEqualTypeOf<string | undefined>();
      expectTypeOf(body.message?.ts).toEqualTypeOf<string | undefined>();
      expectTypeOf(body.channel?.id).toEqualTypeOf<string | undefined>();
    });
    app.view("feedback", {
      ack: ({ view }) => {
        expectTypeOf(view).toEqualTypeOf<ViewOutput>();
        expectTypeOf(view.state.values.feedback?.text?.value).toEqualTypeOf<string | null | undefined>();
      },
    });
    app.shortcut("file_bug", ({ shortcut, body }) => {
      expectTypeOf(shortcut.trigger_id).toEqualTypeOf<string>();
      expectTypeOf(body.user.id).toEqualTypeOf<string>();
    });
  });

  it("say and respond take typed Block Kit", () => {
    app.event("app_mention", async ({ event, say, respond }) => {
      expectTypeOf(say).parameter(0).toEqualTypeOf<string | SayArguments>();
      await say({ text: "hi", thread_ts: event.ts, blocks: [{ type: "section", text: { type: "mrkdwn", text: "hi" } }] });
      // @ts-expect-error a typo'd block type is refused
      await say({ text: "hi", blocks: [{ type: "sectoin", text: { type: "mrkdwn", text: "hi" } }] });
      // @ts-expect-error say posts in the delivery's channel: no `channel` argument
      await say({ channel: "C1", text: "hi" });
      // @ts-expect-error respond's response_type is Slack's
      await respond({ response_type: "public", text: "hi" });
    });
  });
});

describe("custom step listener types", () => {
  const app = new App();

  it("app.function gets the step's inputs, and its run complete and fail", () => {
    app.function("greet", async ({ event, inputs, complete, fail }) => {
      expectTypeOf(event).toEqualTypeOf<FunctionExecutedEvent>();
      expectTypeOf(event.function.callback_id).toEqualTypeOf<string>();
      expectTypeOf(inputs).toEqualTypeOf<FunctionInputs>();
      expectTypeOf(complete).parameter(0).toEqualTypeOf<FunctionCompleteArguments | undefined>();
      await complete({ outputs: { greeting: "hi" } });
      await fail({ error: "no" });
      // @ts-expect-error fail needs an error
      await fail({});
      // @ts-expect-error the token is sealed away: the run's client carries it
      event.bot_access_token;
    });
    app.function("greet", {
      ack: ({ inputs }) => {
        expectTypeOf(inputs).toEqualTypeOf<FunctionInputs>();
      },
    });
  });

  it("an options listener gets the options load typed, and its ack must answer options", () => {
    app.options("pick_env", {
      ack: ({ body, options }) => {
        expectTypeOf(body.value).toEqualTypeOf<string>();
        expectTypeOf(body.user.id).toEqualTypeOf<string>();
        expectTypeOf(body.action_id).toEqualTypeOf<string>();
        expectTypeOf(options).toEqualTypeOf<BlockSuggestionBody>();
        return { options: [{ text: { type: "plain_text", text: body.value }, value: body.value }] };
      },
    });
    app.options(
      { action_id: /^pick_/, block_id: "b1" },
      {
        ack: () => ({ option_groups: [{ label: { type: "plain_text", text: "All" }, options: [] }] }),
      },
    );
    app.options("pick_env", {
      // @ts-expect-error an options answer is { options } or { option_groups }, not a message
      ack: () => ({ text: "no" }),
    });
    app.options("pick_env", {
      // @ts-expect-error external select options are plain text
      ack: () => ({ options: [{ text: { type: "mrkdwn", text: "*a*" }, value: "a" }] }),
    });
  });

  it("actions and views may come from a step: complete and fail are there only then", () => {
    app.action("approve", async ({ complete, inputs }) => {
      expectTypeOf(complete).toEqualTypeOf<FunctionCompletion["complete"] | undefined>();
      expectTypeOf(inputs).toEqualTypeOf<FunctionInputs | undefined>();
    });
    app.view("form", async ({ fail }) => {
      expectTypeOf(fail).toEqualTypeOf<FunctionCompletion["fail"] | undefined>();
    });
    app.event("app_mention", async (args) => {
      // @ts-expect-error an event listener has no function execution
      args.complete;
    });
  });
});
