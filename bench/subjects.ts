import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { textArgument } from "./runtime/cliArguments";
import { argumentsOf, cpuMsOf, descendantsOf } from "./runtime/processCpu";
import { repoRoot } from "./runtime/repoRoot";
import { type Runtime, startRuntime, type WorkerKind } from "./runtime/startRuntime";

/** What is measured side by side: the coordinator, the floor, slack-edge, the seeds' D1 design (and, to split the coordinator's cost, its ingest alone). */
export type SubjectName =
  | "coordinator"
  | "floor"
  | "slack-edge"
  | "slack-edge-same-work"
  | "ingest-only"
  | "coordinator-oauth"
  | "coordinator-relay"
  | "seed-d1";

export interface Subject {
  name: SubjectName;
  runtime: Runtime;
  /** Whether an accepted mention produces a Web API call (the floor sends nothing). */
  sendsReplies: boolean;
  /** Whether an accepted mention is relayed to the fake's /relay (relay mode, no listeners). */
  relays: boolean;
  /** CPU milliseconds its runtime processes (workerd) have used so far; NaN once one of them has gone (restarted). */
  cpuMs(): number;
  logs: SubjectLogs;
}

export interface SubjectLogs {
  lines: number;
  errors: number;
  blockedOutbound: number;
  /** The first few error lines, verbatim, for diagnosis. */
  firstErrors: string[];
  /** Times its workerd was found replaced (Miniflare restarts a crashed workerd). */
  runtimeRestarts: number;
}

/**
 * Follows one Miniflare instance's workerd across restarts: it is recognised by the address of
 * its instance's loopback server, which is on its command line and survives a restart.
 */
function runtimeProcesses(pids: number[], logs: SubjectLogs): () => number {
  const signature = pids.flatMap(argumentsOf).find((arg) => arg.startsWith("--external-addr=loopback="));
  let tracked = pids;
  return () => {
    const total = tracked.reduce((sum, pid) => sum + (cpuMsOf(pid) || Number.NaN), 0);
    if (Number.isNaN(total) && signature) {
      const found = descendantsOf(process.pid).filter((pid) => argumentsOf(pid).includes(signature));
      if (found.length > 0 && found.join() !== tracked.join()) {
        tracked = found;
        logs.runtimeRestarts++;
      }
    }
    return total;
  };
}

/** The subjects a one-subject tool (`npm run profile`, `npm run stalls`) can look at. */
const PROFILED: readonly SubjectName[] = ["coordinator", "slack-edge-same-work", "slack-edge"];

/** The Worker a subject runs (its V8 inspector target's name). */
export function workerOf(name: SubjectName): WorkerKind {
  return WORKERS[name];
}

/** `--{flag} a,b` from the command line: subjects among `allowed` (`fallback` when absent); any other is refused by name. */
export function subjectsArgument(
  flag: string,
  allowed: readonly SubjectName[],
  fallback: readonly SubjectName[] = [],
): SubjectName[] {
  const given = textArgument(flag);
  const names = given === undefined ? [...fallback] : given.split(",").filter((name) => name !== "");
  for (const name of names)
    if (!allowed.includes(name as SubjectName)) throw new Error(`--${flag} must name ${allowed.join(", ")}, not ${name}`);
  return names as SubjectName[];
}

/** `--subject NAME` (the coordinator by default), for a one-subject tool. */
export function subjectArgument(): SubjectName {
  const [name] = subjectsArgument("subject", PROFILED, ["coordinator"]);
  if (name === undefined) throw new Error(`--subject must name one of ${PROFILED.join(", ")}`);
  return name;
}

export const SIGNING_SECRET = "bench-signing-secret";
export const ADMIN_TOKEN = "bench-admin-token";

const WORKERS: Record<SubjectName, WorkerKind> = {
  coordinator: "coordinator",
  floor: "floor",
  "slack-edge": "slackEdge",
  // slack-edge doing the example app's work: placeholder, then chat.update (SLACK_EDGE_WORK).
  "slack-edge-same-work": "slackEdge",
  "ingest-only": "coordinatorIngestOnly",
  "coordinator-oauth": "coordinator",
  // Relay mode alone: an app with no listeners, RELAY_URL set (see relaySettings).
  "coordinator-relay": "coordinatorIngestOnly",
  // The seeds' own design: receipt and outbox row in D1 before the ack, waitUntil, cron sweep (bench/workers/seedD1.ts).
  "seed-d1": "seedD1",
};

/** Relay mode's settings for the "coordinator-relay" subject: the fake answers 200 at /relay at once. */
export function relaySettings(fakeOrigin: string): Record<string, string> {
  return { RELAY_URL: `${fakeOrigin}/relay` };
}

/** OAuth mode's settings for the "coordinator-oauth" subject (a bench-only encryption key). */
export function oauthSettings(fakeOrigin: string): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: "",
    SLACK_CLIENT_ID: "bench-client-id",
    SLACK_CLIENT_SECRET: "bench-client-secret",
    SLACK_SCOPES: "app_mentions:read,chat:write",
    SLACK_OAUTH_AUTHORIZE_URL: `${fakeOrigin}/oauth/v2/authorize`,
    TOKEN_ENCRYPTION_KEY: Buffer.from("bench-only-key-0123456789abcdef!").toString("base64"),
  };
}

/**
 * Starts one subject in its own workerd on 127.0.0.1 (a random free port), with a fresh state
 * directory under bench/.state/. `worker` overrides the bundle (the metered coordinator).
 */
export async function startSubject(options: {
  name: SubjectName;
  apiUrl: string;
  settings?: Record<string, string>;
  worker?: WorkerKind;
  stateDir: string;
  /** Starts on the state a runtime before left there (a restart, as a deploy makes one) instead of a fresh directory. */
  keepState?: boolean;
  /** Opens V8's inspector on this port (npm run profile). */
  inspectorPort?: number;
  /** Every line its Worker logs, besides the tally (the stream scenarios read the app's marks). */
  onLog?: (level: string, message: string) => void;
}): Promise<Subject> {
  const persistTo = resolve(repoRoot, "bench/.state", options.stateDir);
  if (!options.keepState) rmSync(persistTo, { recursive: true, force: true });
  const logs: SubjectLogs = { lines: 0, errors: 0, blockedOutbound: 0, firstErrors: [], runtimeRestarts: 0 };
  const before = new Set(descendantsOf(process.pid));
  const runtime = await startRuntime({
    worker: options.worker ?? WORKERS[options.name],
    port: 0,
    persistTo,
    // The guard's extra hop per outbound call would skew CPU and latency; loopback-only is
    // ensured by configuration here (SLACK_API_URL, and slack-edge's own check, see its file).
    outboundGuard: false,
    installations: options.name === "coordinator-oauth",
    inspectorPort: options.inspectorPort,
    bindings: {
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_BOT_TOKEN: "xoxb-bench-token",
      SLACK_API_URL: options.apiUrl,
      ADMIN_TOKEN,
      // The fake Slack has no limits and the load is far above Slack's (the example app's
      // chat.update is 50+ a minute per workspace): paced, every subject would deliver 50 replies a
      // minute. The bench measures the engine; pacing has its own test (test/delivery/pacing.test.ts).
      SLACK_PACING: "off",
      // The numbers in bench/README.md were measured on the assistant view (the Worker's default then).
      AGENT_SESSIONS: "false",
      ...(options.name === "slack-edge-same-work" ? { SLACK_EDGE_WORK: "placeholder-update" } : {}),
      ...options.settings,
    },
    onLog: (level, message) => {
      logs.lines++;
      if (level === "error" && ++logs.errors <= 5) logs.firstErrors.push(message.slice(0, 500));
      if (message.includes("outbound blocked")) logs.blockedOutbound++;
      options.onLog?.(level, message);
    },
  });
  const pids = descendantsOf(process.pid).filter((pid) => !before.has(pid));
  return {
    name: options.name,
    runtime,
    sendsReplies: ["coordinator", "coordinator-oauth", "slack-edge", "slack-edge-same-work", "seed-d1"].includes(options.name),
    relays: options.name === "coordinator-relay",
    cpuMs: runtimeProcesses(pids, logs),
    logs,
  };
}
