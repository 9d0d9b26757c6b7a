// Compiled by `npm run typecheck` (test/ports/tsconfig.json), never run: Bolt calls that could only
// fail at run time do not compile, and the shapes that work do (issue 46, "types that match run time"):
// `ack` with a body only in the ack phase, `app.error` given the error as Bolt gives it, `env` typed by `Env`.
import { App, Assistant, createCoordinator } from "../../src/lib";

// ack in a run: Bolt's `await ack()` is accepted (Slack was acked when the delivery was recorded) …
new App().command("/ok", async ({ ack, respond }) => {
  await ack();
  await respond("done");
});

// … a body there comes too late, and the compiler says where it goes instead.
new App().command("/late", async ({ ack }) => {
  // @ts-expect-error ack(body) in run comes too late: answer with a body from the ack phase: { ack: (…) => body, run }
  await ack("Working on it…");
});
new App().event("app_mention", async ({ ack }) => {
  // @ts-expect-error ack(body) in run comes too late: answer with a body from the ack phase: { ack: (…) => body, run }
  await ack({ text: "too late" });
});

// In the ack phase a body is what Slack gets: a command's ephemeral text, a modal's field errors.
new App().command("/slow", { ack: () => "Working on it…", run: async ({ respond }) => respond("done") });
new App().view("form", {
  ack: ({ view }) => (view.state.values.title ? undefined : { response_action: "errors", errors: { title: "Required" } }),
  run: async ({ ack, view }) => {
    await ack();
    void view.id;
  },
});

// A view submission's field errors from a run would close the modal silently: they do not compile.
new App().view("form", async ({ ack }) => {
  // @ts-expect-error ack(body) in run comes too late: answer with a body from the ack phase: { ack: (…) => body, run }
  await ack({ response_action: "errors", errors: { title: "Required" } });
});
new App().view("form", {
  // @ts-expect-error what a run returns reaches no one: the errors belong in the ack phase
  run: async () => ({ response_action: "errors", errors: { title: "Required" } }),
});

// app.error, as Bolt calls it: the argument is the error (`message`, `code`, `original`) …
new App().error(async (error) => {
  const message: string = error.message;
  const code: string = error.code;
  const original: Error | undefined = error.original;
  // … which also carries Bolt's extended handler's fields, and the failed listener's run arguments.
  const { logger, body, context, listener, say } = error;
  logger.error(message, code, original, listener, body, context.teamId);
  await say(`Sorry, that failed: ${original?.message}`);
});
// Bolt's extended shape (`extendedErrorHandler: true` there) works as it is.
new App().error(async ({ error, logger, body, context }) => {
  logger.error(error.message, error.code, error.original, body, context.teamId);
});

// env typed by the Worker's Env, as `wrangler types` writes it: no cast for a secret.
interface Env {
  SLACK_SIGNING_SECRET: string;
  OPENAI_API_KEY: string;
  CACHE: KVNamespace;
}

const app = new App<Env>();
app.event("app_mention", async ({ env, say }) => {
  const key: string = env.OPENAI_API_KEY;
  await env.CACHE.put("last", key);
  // @ts-expect-error not declared in Env
  await say(String(env.ANTHROPIC_API_KEY));
});
app.options("pick", async ({ env, ack }) => {
  const cached: string | null = await env.CACHE.get("options");
  await ack({ options: cached ? [{ text: { type: "plain_text", text: cached }, value: cached }] : [] });
});
app.error(async (error) => {
  const key: string = error.env.OPENAI_API_KEY;
  error.logger.info(key.length);
});
app.assistant(
  new Assistant<Env>({
    threadStarted: async ({ env, say }) => {
      await say(env.OPENAI_API_KEY ? "ready" : "no model");
    },
    userMessage: async ({ env }) => {
      const key: string = env.OPENAI_API_KEY;
      void key;
    },
  }),
);

// createCoordinator infers Env from the app (`authorize` gets it too), or is given it.
createCoordinator({ app, authorize: (_ref, env) => ({ botToken: env.OPENAI_API_KEY }) });
createCoordinator<Env>({ app });
// @ts-expect-error an app whose listeners expect another Env
createCoordinator<Env>({ app: new App<{ OTHER: string }>() });

// Without an Env, env is what it was: any key, each unknown.
new App().event("app_mention", async ({ env }) => {
  const anything: unknown = env.ANYTHING;
  void anything;
});
