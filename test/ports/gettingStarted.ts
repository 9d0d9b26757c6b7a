// Slack's bolt-js-getting-started-app, ported: only the import, the App construction and the
// export differ from the Bolt original (docs/guides/migrating-from-bolt.md shows the diff).
import { App, createCoordinator } from "../../src/lib";

export const app = new App();

// Listens to incoming messages that contain "hello"
app.message("hello", async ({ message, say }) => {
  // say() sends a message to the channel where the event was triggered
  await say({
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `Hey there <@${message.user}>!`,
        },
        accessory: {
          type: "button",
          text: {
            type: "plain_text",
            text: "Click Me",
          },
          action_id: "button_click",
        },
      },
    ],
    text: `Hey there <@${message.user}>!`,
  });
});

app.action("button_click", async ({ body, ack, say }) => {
  // Acknowledge the action
  await ack();
  await say(`<@${body.user.id}> clicked the button`);
});

const { worker, Shard, Installations } = createCoordinator({ app });

export { Installations, Shard };
export default worker;
