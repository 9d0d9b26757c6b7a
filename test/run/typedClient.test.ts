import { describe, expect, it } from "vitest";
import { formEncode } from "../../src/slack/webApi";
import { signedForm, slashCommandFields } from "../../src/testing/deliveries";
import type { Fault } from "../../src/testing/fakeSlack";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** `/whois` from the test app: `client.users.info(…)` in a run, then `respond(real_name)`. */
async function whois(team: string) {
  const fields = slashCommandFields("/whois", "", {
    team_id: team,
    user_id: "U0WHO",
    response_url: slack().responseUrl("whois"),
  });
  expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
}

/**
 * Delivers `command` with `method` answering `fault` once, lets the immediate attempt settle,
 * and returns the run's row.
 */
async function runFailingOnce(command: string, method: string, fault: Fault) {
  const clock = controlClock();
  const team = newWorkspace();
  slack().fail({ method }, fault);
  const fields = slashCommandFields(command, "x", { team_id: team, user_id: "U0WHO", response_url: slack().responseUrl("r") });
  expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
  await slack().waitForCall((call) => call.method === method);
  await sweepUntilQuiet(shardStub(team), clock, 1, 1);
  const [row] = await outboxRows(shardStub(team));
  return { row, clock };
}

const whoisFailingOnce = (fault: Fault) => runFailingOnce("/whois", "users.info", fault);

describe("the typed Web API client in handlers", () => {
  it("any method is one call with the workspace's token, and its answer comes back typed", async () => {
    const team = newWorkspace();
    await whois(team);
    const answer = await slack().waitForCall((call) => call.method === "response_url");
    expect(
      slack()
        .callsTo("users.info")
        .map((call) => [call.body, call.token]),
    ).toEqual([[{ user: "U0WHO" }, "Bearer xoxb-test-token"]]);
    expect(answer.body).toEqual({ text: "Real U0WHO" });
  });

  it("sends Web API arguments form-encoded (read methods refuse JSON), response_url answers as JSON", async () => {
    const team = newWorkspace();
    await whois(team);
    const answer = await slack().waitForCall((call) => call.method === "response_url");
    expect(slack().callsTo("users.info")[0]!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(
      formEncode({ channel: "C1", blocks: [{ type: "divider" }], thread_ts: undefined, unfurl_links: false }).toString(),
    ).toBe("channel=C1&blocks=%5B%7B%22type%22%3A%22divider%22%7D%5D&unfurl_links=false");
  });

  it("a form reads back as the arguments it was made of, whatever their characters (a lone surrogate as U+FFFD)", () => {
    const args = { text: "a b+c&d=e %20 ü 🙂 *-._~!'()", "key with space": "x", surrogate: "left \ud800 alone" };
    expect(Object.fromEntries(new URLSearchParams(formEncode(args)))).toEqual({
      ...args,
      surrogate: "left \ufffd alone",
    });
  });

  it("transient: a 5xx is retried with backoff", async () => {
    const { row, clock } = await whoisFailingOnce({ status: 500 });
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "users.info: 500 http_500" });
    expect(row!.next_attempt_at).toBeGreaterThanOrEqual(clock.now() + 2000 - 1);
  });

  it("rate-limited: a 429 is retried no sooner than its Retry-After", async () => {
    const { row, clock } = await whoisFailingOnce({ status: 429, retryAfter: 30 });
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "users.info: 429 ratelimited" });
    expect(row!.next_attempt_at).toBeGreaterThanOrEqual(clock.now() + 30_000 - 1);
  });

  it("permanent: an ok:false code such as user_not_found parks the run at once", async () => {
    const { row } = await whoisFailingOnce({ error: "user_not_found" });
    expect(row).toMatchObject({ status: "parked", attempts: 1, last_error: "users.info: 200 user_not_found" });
  });

  it("unreachable: a dropped connection is retried, named as such", async () => {
    const { row } = await whoisFailingOnce({ reset: true });
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row!.last_error).toMatch(/^users\.info: network: /);
  });

  it("files.uploadV2 runs Slack's upload flow: get an upload URL, upload the bytes, complete into the channel", async () => {
    const team = newWorkspace();
    const fields = slashCommandFields("/report", "quarterly numbers", { team_id: team, channel_id: "C0REPORT" });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    const complete = await slack().waitForCall((call) => call.method === "files.completeUploadExternal");
    const calls = slack().calls.map((call) => [call.method, call.body]);
    expect(calls).toEqual([
      ["files.getUploadURLExternal", { filename: "report.txt", length: String("quarterly numbers".length) }],
      ["file_upload", { bytes: "quarterly numbers" }],
      ["files.completeUploadExternal", { files: [{ id: "F1", title: "Report" }], channel_id: "C0REPORT" }],
    ]);
    expect(complete.token).toBe("Bearer xoxb-test-token");
    expect(slack().callsTo("file_upload")[0]!.token).toBeNull(); // the upload URL is the credential
  });

  it("files.uploadV2: a failed upload fails the run as any call does (5xx retried)", async () => {
    const { row } = await runFailingOnce("/report", "file_upload", { status: 503 });
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "files.upload: 503 http_503" });
  });
});
