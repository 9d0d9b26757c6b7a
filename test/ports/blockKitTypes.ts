// Compiled by `npm run typecheck` (test/ports/tsconfig.json), never run: Block Kit typed by
// `@slack/types` — what Bolt and Slack's samples use — is accepted everywhere a message or a view
// goes (issue 31), `text` may be left out when blocks are given, and a malformed block still fails.
import type { Block, HomeView, KnownBlock, ModalView } from "@slack/types";
import { App } from "../../src/lib";

const blocks: KnownBlock[] = [
  {
    type: "section",
    text: { type: "mrkdwn", text: "hi" },
    accessory: { type: "button", text: { type: "plain_text", text: "b" }, action_id: "a" },
  },
  {
    type: "actions",
    elements: [{ type: "static_select", action_id: "s", options: [{ text: { type: "plain_text", text: "o" }, value: "v" }] }],
  },
  { type: "input", label: { type: "plain_text", text: "l" }, element: { type: "plain_text_input", action_id: "i" } },
  { type: "rich_text", elements: [{ type: "rich_text_section", elements: [{ type: "text", text: "x" }] }] },
  { type: "context", elements: [{ type: "mrkdwn", text: "c" }] },
  { type: "header", text: { type: "plain_text", text: "h" } },
  { type: "image", image_url: "https://e.x/i.png", alt_text: "a" },
  { type: "divider" },
];
const loose: (KnownBlock | Block)[] = blocks;
const view: ModalView = { type: "modal", title: { type: "plain_text", text: "t" }, blocks };
const home: HomeView = { type: "home", blocks };
new App().event("app_mention", async ({ client, say, respond, sayStream }) => {
  await client.chat.postMessage({ channel: "C1", blocks });
  await client.chat.postMessage({ channel: "C1", blocks: loose });
  await client.chat.update({ channel: "C1", ts: "1.1", blocks });
  await client.chat.postEphemeral({ channel: "C1", user: "U1", blocks });
  await client.views.open({ trigger_id: "x", view });
  await client.views.publish({ user_id: "U1", view: home });
  await say({ blocks });
  await say({ blocks: loose });
  await respond({ blocks });
  const stream = sayStream();
  await stream.stop({ blocks: loose });
  // @ts-expect-error a section's text is a text object, not a number
  await client.chat.postMessage({ channel: "C1", blocks: [{ type: "section", text: 3 }] });
  // @ts-expect-error a view needs its type
  await client.views.open({ trigger_id: "x", view: { blocks } });
});
