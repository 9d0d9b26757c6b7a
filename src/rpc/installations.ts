/**
 * The installation store's RPC surface and the shapes it speaks (OAuth mode). Types only, so the
 * Worker, the shards and the operations API depend on this leaf rather than on the class. Deploys
 * roll out gradually: only ever add optional fields and new methods.
 */

/** The part of Slack's `oauth.v2.access` answer an installation is made of. */
export interface OAuthAccess {
  ok: boolean;
  error?: string;
  app_id?: string;
  access_token?: string;
  token_type?: string;
  scope?: string;
  bot_user_id?: string;
  refresh_token?: string;
  expires_in?: number;
  team?: { id?: string; name?: string } | null;
  enterprise?: { id?: string; name?: string } | null;
  is_enterprise_install?: boolean;
  authed_user?: { id?: string; scope?: string; access_token?: string; refresh_token?: string; expires_in?: number };
}

export type InstallationStatus = "installed" | "uninstalled" | "revoked";

/** One installation as operators see it (GET /admin/installations): everything but its tokens. */
export interface InstallationSummary {
  /** The team id, or the enterprise id of an org-wide install: the shards' workspace key. */
  id: string;
  teamId: string | null;
  teamName: string | null;
  enterpriseId: string | null;
  enterpriseName: string | null;
  isEnterpriseInstall: boolean;
  appId: string | null;
  botUserId: string | null;
  botScopes: string[];
  /** The installing user, and the user scopes they granted. */
  userId: string | null;
  userScopes: string[];
  /** When the bot token expires (token rotation), ms since the epoch; null when it does not. */
  tokenExpiresAt: number | null;
  /** Org-wide installs: the workspaces the org granted access to (team_access_granted/revoked). */
  teams: string[];
  status: InstallationStatus;
  /** Why it is not installed: "app uninstalled", "tokens revoked", a refused refresh, an operator. */
  statusReason: string | null;
  /** The latest install (a reinstall moves it); lifecycle events from before it are ignored. */
  installedAt: number;
  updatedAt: number;
  uninstalledAt: number | null;
}

/** What a shard is told when it asks for an installation's bot token. */
export type TokenAnswer =
  | {
      status: "installed";
      botToken: string;
      /** The installing user's token, when user scopes were granted (a run's `context.userToken`). */
      userToken?: string;
      /** The scopes granted to the bot token at install (oauth.v2.access's `scope`): optional ones may be missing. */
      botScopes?: string[];
      /** The earlier of the two tokens' expiries (ms since the epoch); null when neither expires. */
      expiresAt: number | null;
    }
  /** No usable installation: never installed ("absent"), uninstalled or revoked. Permanent until a reinstall. */
  | { status: "absent" | "uninstalled" | "revoked"; reason: string }
  /** The token needs a refresh that failed for now (Slack unreachable, 5xx): ask again later. */
  | { status: "retry"; reason: string };

/** Whether a workspace is installed, as the ack path asks it: nothing decrypted. */
export type StatusAnswer =
  | { status: "installed"; expiresAt: number | null }
  | { status: "absent" | "uninstalled" | "revoked"; reason: string };

/** Why an installation is tombstoned: the event's reason and Slack's `event_time` (seconds), if from an event. */
export interface LifecycleCause {
  reason: string;
  eventTime?: number;
}

/** A change a shard is told about (pushed to every bucket of the workspace). */
export type InstallationChange = { status: "installed" } | { status: "uninstalled" | "revoked"; reason: string };

/** Outcome of redeeming an OAuth state at the directory. */
export type StateCheck = "valid" | "expired" | "unknown";

/** One installation (the object named by installationObjectName(id)). */
export interface InstallationApi {
  /** Stores (or updates in place) the installation an `oauth.v2.access` answer describes. */
  save(access: OAuthAccess): Promise<InstallationSummary>;
  /**
   * The current bot token (and the installing user's), refreshed first when it is about to expire (one refresh at a time) —
   * unless `refresh: false` (the ack path only asks whether the workspace is installed).
   */
  token(options?: { refresh?: boolean }): Promise<TokenAnswer>;
  /** Installed or not, nothing decrypted (the ack path). */
  status(): StatusAnswer;
  /** app_uninstalled (or an operator): tokens deleted, a tombstone kept. False if nothing changed. */
  uninstall(cause: LifecycleCause): Promise<boolean>;
  /** tokens_revoked: the bot's token (if its user id is listed) and the installer's user token. */
  revokeTokens(revoked: { bot: string[]; users: string[] }, cause: LifecycleCause): Promise<boolean>;
  /** Slack rejected `botToken` with `code`: revoked, if it is still the installation's token. */
  tokenRejected(botToken: string, code: string): Promise<boolean>;
  /** team_access_granted / team_access_revoked on an org-wide install. */
  teamAccess(change: "granted" | "revoked", teamIds: string[]): Promise<void>;
  summary(): InstallationSummary | null;
  /** Deletes the installation entirely (DELETE /admin/installations/{id}); false if there was none. */
  remove(id: string): Promise<boolean>;
}

/** The directory (the object named DIRECTORY): OAuth states and the list of installations. */
export interface DirectoryApi {
  /** A fresh signed state, valid for ten minutes; stores nothing (for Workers that still ask here). */
  openState(): Promise<string>;
  /** Redeems a state: valid once (recorded until it expires), then unknown; unknown if not signed here. */
  consumeState(state: string): Promise<StateCheck>;
  list(cursor?: string, limit?: number): { installations: InstallationSummary[]; cursor: string | null };
  recordSummary(summary: InstallationSummary): void;
  forgetSummary(id: string): void;
}

/**
 * The Durable Object class's whole surface (the INSTALLATIONS namespace's type): one class plays
 * both roles, picked by name; a stub is typed for one (stubs.ts), and the other's methods throw WrongRole.
 */
export interface InstallationsApi extends InstallationApi, DirectoryApi {}
