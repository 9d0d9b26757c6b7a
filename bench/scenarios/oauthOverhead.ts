import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeSlack } from "../../src/testing/fakeSlack";
import { ADMIN_TOKEN, type Subject } from "../subjects";
import type { BenchContext } from "./benchContext";
import { interleavedRuns, medianOf, ratioOf } from "./interleaved";
import type { RunResult } from "./runAtRate";

/**
 * OAuth mode against single-workspace mode, same load, same workspaces, runs interleaved. (Rows
 * written per event are compared by the cost scenario, run on a metered OAuth subject as well.)
 */
export interface OAuthOverhead {
  rate: number;
  durationS: number;
  workspaces: number;
  rounds: number;
  single: RunResult[];
  oauth: RunResult[];
  /** Median over the rounds of each run's ack percentile, ms. */
  ackP50: { single: number | null; oauth: number | null };
  ackP99: { single: number | null; oauth: number | null };
  /** OAuth's median ack p99 over single-workspace's. */
  p99Ratio: number | null;
  /** Installations whose record changed during the runs (a token refresh would): 0 means tokens were only read. */
  installationsWritten: number;
  /** Files under the OAuth subject's persisted state holding an installed bot token in plaintext (must be 0). */
  plaintextTokenFiles: string[];
  /** Files scanned for it (Durable Object SQLite files and their WAL, Miniflare's metadata). */
  filesScanned: number;
}

/** The bot token the bench installs for a team. */
export const benchToken = (team: string) => `xoxb-${team}-bench`;

/** Every file under `dir` that contains one of `secrets` as plain bytes. */
export function filesContaining(dir: string, secrets: readonly string[]): { hits: string[]; scanned: number } {
  const hits: string[] = [];
  let scanned = 0;
  const needles = secrets.map((secret) => Buffer.from(secret));
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        scanned++;
        const bytes = readFileSync(path);
        if (needles.some((needle) => bytes.includes(needle))) hits.push(path);
      }
    }
  };
  walk(dir);
  return { hits, scanned };
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Installs each team through the real install flow (/slack/install → consent → /slack/oauth_redirect). */
export async function installWorkspaces(subject: Subject, fake: FakeSlack, teams: readonly string[]): Promise<void> {
  for (const team of teams) {
    const start = await fetch(new URL("/slack/install", subject.runtime.url), { redirect: "manual" });
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state");
    const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const code = `bench-code-${team}-${Date.now()}`;
    fake.issueCode(code, {
      app_id: "A0BENCH",
      access_token: benchToken(team),
      token_type: "bot",
      // As the demo's manifest asks (its history scope optional): its posts can be looked for, so a
      // post's step is checkpointed by the post, as in single-workspace mode (docs/reference/app-api.md).
      scope: "app_mentions:read,chat:write,channels:history",
      bot_user_id: `UB${team}`,
      team: { id: team, name: `Bench ${team}` },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: "U0BENCH" },
    });
    const done = await fetch(new URL(`/slack/oauth_redirect?code=${code}&state=${state}`, subject.runtime.url), {
      headers: { cookie },
      redirect: "manual",
    });
    await done.arrayBuffer();
    if (done.status !== 200) throw new Error(`bench: installing ${team} answered ${done.status}`);
  }
}

async function installationStamps(subject: Subject): Promise<Map<string, number>> {
  const page = (await (
    await fetch(new URL("/admin/installations?limit=1000", subject.runtime.url), { headers: admin })
  ).json()) as {
    installations: Array<{ id: string; updatedAt: number }>;
  };
  return new Map(page.installations.map((i) => [i.id, i.updatedAt]));
}

export async function compareOAuth(
  context: BenchContext,
  single: Subject,
  oauth: Subject,
  options: { rate: number; durationMs: number; rounds: number; workspaces: readonly string[]; oauthStateDir: string },
): Promise<OAuthOverhead> {
  const stampsBefore = await installationStamps(oauth);
  const pair = await interleavedRuns(context, single, oauth, options);
  const runs = { single: pair.a, oauth: pair.b };
  const stampsAfter = await installationStamps(oauth);
  const atRest = filesContaining(options.oauthStateDir, options.workspaces.map(benchToken));
  const p = (results: RunResult[], key: "p50" | "p99") => medianOf(results, (r) => r.ack[key]);
  const ackP99 = { single: p(runs.single, "p99"), oauth: p(runs.oauth, "p99") };
  return {
    rate: options.rate,
    durationS: options.durationMs / 1000,
    workspaces: options.workspaces.length,
    rounds: options.rounds,
    single: runs.single,
    oauth: runs.oauth,
    ackP50: { single: p(runs.single, "p50"), oauth: p(runs.oauth, "p50") },
    ackP99,
    p99Ratio: ratioOf(ackP99.oauth, ackP99.single),
    installationsWritten: [...stampsAfter].filter(([id, at]) => stampsBefore.get(id) !== at).length,
    plaintextTokenFiles: atRest.hits,
    filesScanned: atRest.scanned,
  };
}
