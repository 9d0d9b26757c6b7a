/**
 * The demo's Slack app manifest (src/example/app.ts, agent.ts) for a Worker at DEMO_URL, with the
 * settings `npm start` gives it (.dev.vars.example: AGENT_SESSIONS=true): every event, scope,
 * command, step and URL its registrations need, and nothing else. test/example/manifest.test.ts
 * reads it from GET /admin/manifest, test/unit/manifestCommand.test.ts from the `manifest` command.
 */
export const DEMO_URL = "https://demo.example.com";
const URL_ = DEMO_URL;

export const DEMO_MANIFEST = {
  _metadata: { major_version: 2, minor_version: 1 },
  display_information: { name: "Durable demo", description: "Counts, one number at a time — durably, on Cloudflare." },
  features: {
    app_home: { messages_tab_enabled: true, messages_tab_read_only_enabled: false },
    bot_user: { display_name: "Durable demo", always_online: false },
    slash_commands: [
      {
        command: "/echo",
        url: `${URL_}/slack/commands`,
        description: "Answers your text back",
        usage_hint: "TEXT",
        should_escape: false,
      },
      { command: "/feedback", url: `${URL_}/slack/commands`, description: "Tell us what to improve", should_escape: false },
    ],
    // .dev.vars.example sets AGENT_SESSIONS=true: the demo is declared an agent.
    agent_view: {
      agent_description: "Counts to N, one number at a time, streamed",
      suggested_prompts: [
        { title: "Count to 30", message: "count to 30" },
        { title: "Count to 500", message: "count to 500" },
      ],
    },
  },
  oauth_config: {
    scopes: {
      bot: [
        "app_mentions:read",
        "assistant:write",
        "channels:history",
        "chat:write",
        "commands",
        "groups:history",
        "im:history",
        "mpim:history",
      ],
    },
  },
  settings: {
    event_subscriptions: {
      request_url: `${URL_}/slack/events`,
      bot_events: [
        "agent_session_stopped",
        "app_home_opened",
        "app_mention",
        "assistant_thread_context_changed",
        "assistant_thread_started",
        "function_executed",
        "message.channels",
        "message.groups",
        "message.im",
        "message.mpim",
      ],
    },
    interactivity: { is_enabled: true, request_url: `${URL_}/slack/interactivity` },
    function_runtime: "remote",
    org_deploy_enabled: true,
    socket_mode_enabled: false,
  },
  functions: {
    count_words: {
      title: "Count words",
      description: "Counts the words of a text",
      input_parameters: {
        properties: { text: { name: "text", type: "string", title: "Text", description: "The text to count" } },
        required: ["text"],
      },
      output_parameters: {
        properties: { summary: { name: "summary", type: "string", title: "Summary" } },
        required: ["summary"],
      },
    },
  },
};
