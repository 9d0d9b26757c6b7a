import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { messageTs } from "../../src/testing/deliveries";
import { SlackSimulator } from "../../src/testing/slackSimulator";
import { SESSION_TITLE_CHANGED_AS_DOCUMENTED, USER } from "../support/assistantPayloads";
import { newWorkspace } from "../support/coordinator";
import { TEST_SIGNING_SECRET } from "../support/secrets";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 45 point 2, through the Worker under test (test/support/testApp.ts): a user renames an
// agent session (`agent_session_title_changed`, Slack's documented payload), the assistant's
// `titleChanged` gets the title, and the thread keeps it: a later `setTitle()` of the app leaves
// it alone (no title call reaches Slack) unless it says `{ overwrite: true }`.

const slack = useFakeSlack();

/** A workspace of its own, a DM thread in it, and the simulator that signs its deliveries. */
function newThread() {
  const team = newWorkspace();
  const channel = `D${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const simulate = new SlackSimulator({ signingSecret: TEST_SIGNING_SECRET, teamId: team });
  return { team, channel, threadTs: messageTs(), simulate };
}
type Thread = ReturnType<typeof newThread>;

async function accepted(request: Promise<Request>): Promise<void> {
  expect((await exports.default.fetch(await request)).status).toBe(200);
}

/** The app's post in the thread whose text starts with `text`, once the fake Slack has it. */
const postIn = (thread: Thread, text: string) =>
  slack().waitForCall(
    (call) =>
      call.method === "chat.postMessage" && call.body.channel === thread.channel && String(call.body.text).startsWith(text),
  );

/** The user renames the thread's session: Slack's documented payload, in this thread and workspace. */
async function userRenames(thread: Thread): Promise<void> {
  const { type: _, ...fields } = SESSION_TITLE_CHANGED_AS_DOCUMENTED;
  await accepted(
    thread.simulate.agentSessionTitleChanged({
      ...fields,
      team_id: thread.team,
      channel: thread.channel,
      thread_ts: thread.threadTs,
    }),
  );
}

/** A user's message in the thread, its reply awaited: the run is over, its setTitle (if any) made before the reply. */
async function userSays(thread: Thread, text: string): Promise<void> {
  const message = { channel: thread.channel, channel_type: "im", user: USER, text, thread_ts: thread.threadTs };
  await accepted(thread.simulate.event("message", message));
  await postIn(thread, `you said "${text}"`);
}

const titleCalls = (thread: Thread) =>
  ["assistant.threads.setTitle", "agents.sessions.rename"].flatMap((method) =>
    slack()
      .callsTo(method)
      .filter((call) => call.body.channel_id === thread.channel)
      .map((call) => ({ method, title: call.body.title })),
  );

describe("agent_session_title_changed", () => {
  it("reaches the assistant's titleChanged with Slack's payload: the new title and the previous one, in the thread", async () => {
    const thread = newThread();
    await userRenames(thread);
    const told = await postIn(thread, "renamed to");
    expect(told.body).toMatchObject({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: 'renamed to "Bora Bora trip prep" from "Scuba diving research"',
    });
  });

  it("is kept for the thread: the app's later setTitle is skipped, no title call reaches Slack", async () => {
    const thread = newThread();
    await userRenames(thread);
    await postIn(thread, "renamed to");
    await userSays(thread, "title Counting to 30");
    expect(titleCalls(thread)).toEqual([]);
  });

  it("a setTitle with { overwrite: true } renames it anyway", async () => {
    const thread = newThread();
    await userRenames(thread);
    await postIn(thread, "renamed to");
    await userSays(thread, "title! Counting to 30");
    expect(titleCalls(thread)).toEqual([{ method: "assistant.threads.setTitle", title: "Counting to 30" }]);
  });

  it("a thread its user never renamed takes the app's title", async () => {
    const thread = newThread();
    await userSays(thread, "title Counting to 30");
    expect(titleCalls(thread)).toEqual([{ method: "assistant.threads.setTitle", title: "Counting to 30" }]);
  });
});
