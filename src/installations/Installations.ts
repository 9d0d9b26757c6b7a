import { DurableObject } from "cloudflare:workers";
import { WrongRole } from "../platform/errors";
import { log } from "../platform/log";
import { Schema } from "../platform/sql/schema";
import type { CoordinatorEnv } from "../rpc/env";
import { DIRECTORY } from "../rpc/installationStubs";
import type { InstallationSummary, InstallationsApi, LifecycleCause, OAuthAccess } from "../rpc/installations";
import { Directory } from "./directory";
import { INSTALLATION_MIGRATIONS } from "./installationMigrations";
import { Installation } from "./installationObject";

/**
 * The installation store (OAuth mode): one Durable Object class (one binding, INSTALLATIONS)
 * playing two roles picked once by name — one object per installation (installationObject.ts), and
 * one, the directory, for OAuth states and the operations list (directory.ts). The class is the
 * RPC facade: one-line delegations, and a method of the other role throws WrongRole.
 */
export class Installations extends DurableObject<CoordinatorEnv> implements InstallationsApi {
  private readonly role: Installation | Directory;
  private readonly name: string;
  private readonly schema: Schema;

  constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
    super(ctx, env);
    this.name = ctx.id.name ?? ctx.id.toString();
    const schema = new Schema(ctx.storage, INSTALLATION_MIGRATIONS);
    this.schema = schema;
    this.role = this.name === DIRECTORY ? new Directory(schema, env) : new Installation(schema, env);
    // Schema first; the only blockConcurrencyWhile (on the request path it would cap throughput).
    void ctx.blockConcurrencyWhile(async () => {
      schema.open();
      if (schema.refusal)
        log("error", "installation store refuses every request: its schema is newer than this code", {
          object: this.name,
          error: schema.refusal.message,
        });
    });
  }

  // A schema newer than this code refuses every request: read as empty, an installation would
  // look uninstalled, and its workspace's events would be answered 410 and lost.
  private get installation(): Installation {
    this.schema.refuseIfNewer();
    if (this.role instanceof Installation) return this.role;
    throw new WrongRole(this.name, this.role.kind, "an installation");
  }

  private get directory(): Directory {
    this.schema.refuseIfNewer();
    if (this.role instanceof Directory) return this.role;
    throw new WrongRole(this.name, this.role.kind, "the directory");
  }

  // One installation (InstallationApi).
  save(access: OAuthAccess) {
    return this.installation.save(access);
  }
  status() {
    return this.installation.status();
  }
  token(options?: { refresh?: boolean }) {
    return this.installation.token(options);
  }
  uninstall(cause: LifecycleCause) {
    return this.installation.uninstall(cause);
  }
  revokeTokens(revoked: { bot: string[]; users: string[] }, cause: LifecycleCause) {
    return this.installation.revokeTokens(revoked, cause);
  }
  tokenRejected(botToken: string, code: string) {
    return this.installation.tokenRejected(botToken, code);
  }
  teamAccess(change: "granted" | "revoked", teamIds: string[]) {
    return this.installation.teamAccess(change, teamIds);
  }
  summary() {
    return this.installation.summary();
  }
  remove(id: string) {
    return this.installation.remove(id);
  }

  // The directory (DirectoryApi).
  openState() {
    return this.directory.openState();
  }
  consumeState(state: string) {
    return this.directory.consumeState(state);
  }
  list(cursor?: string, limit?: number) {
    return this.directory.list(cursor, limit);
  }
  recordSummary(summary: InstallationSummary) {
    return this.directory.recordSummary(summary);
  }
  forgetSummary(id: string) {
    return this.directory.forgetSummary(id);
  }
}
