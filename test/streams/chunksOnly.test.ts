import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { type AnswerRun, casesOf, problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

const BLOCKS = [{ type: "section", text: { type: "mrkdwn", text: "mark_done" } }];

// A task's progress with no text between: appends and a stop that carry chunks alone.
const app = new App().event("app_mention", async ({ sayStream }) => {
  const streamer = sayStream({ task_display_mode: "plan" });
  await streamer.append({ markdown_text: "Working. " });
  await streamer.append({ chunks: [{ type: "task_update", id: "t1", title: "Looking", status: "in_progress" }] });
  await streamer.append({
    chunks: [
      { type: "plan_update", title: "Almost there" },
      { type: "task_update", id: "t1", title: "Looking", status: "complete" },
    ],
  });
  await streamer.stop({ chunks: [{ type: "plan_update", title: "Done" }], blocks: BLOCKS as never });
});

const scenario: Scenario = { name: "chunks only", app, text: "Working. ", blocksMark: "mark_done", makes: ["chat.appendStream"] };

describe("appends and a stop that carry chunks and no text", () => {
  it("reach Slack in order, each once: a task in progress, a plan's titles, the task complete", async () => {
    const run = await runAnswer(scenario);
    expect(problemsOf(scenario, run)).toEqual([]);
    const [message] = run.slack.messagesIn(run.channel, run.thread);
    expect(message?.chunks).toEqual([
      { type: "task_update", id: "t1", title: "Looking", status: "in_progress" },
      { type: "plan_update", title: "Almost there" },
      { type: "task_update", id: "t1", title: "Looking", status: "complete" },
      { type: "plan_update", title: "Done" },
    ]);
  });

  it("under every fault at every call, the thread ends showing each task's last state and the last plan title", async () => {
    const clean = await runAnswer(scenario);
    const failures: string[] = [];
    for (const fault of casesOf(scenario, clean.calls)) {
      const run = await runAnswer(scenario, fault);
      const problems = [...problemsOf(scenario, run), ...finalViewProblems(run)];
      if (problems.length > 0)
        failures.push(`${fault.fault} at call ${fault.at} (${clean.calls[fault.at]}): ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  });
});

/** What Slack shows of the chunks: each task by its id at its last status, the plan under its last title. */
function finalViewProblems(run: AnswerRun): string[] {
  const chunks = run.slack.messagesIn(run.channel, run.thread).flatMap((message) => message.chunks);
  const tasks = new Map(chunks.flatMap((chunk) => (chunk.type === "task_update" ? [[chunk.id, chunk.status] as const] : [])));
  const titles = chunks.flatMap((chunk) => (chunk.type === "plan_update" ? [chunk.title] : []));
  const problems: string[] = [];
  if (tasks.get("t1") !== "complete") problems.push(`task t1 shows ${tasks.get("t1")}`);
  if (titles.at(-1) !== "Done") problems.push(`the plan shows "${titles.at(-1)}"`);
  return problems;
}
