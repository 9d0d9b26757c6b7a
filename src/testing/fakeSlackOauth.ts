/**
 * The fake Slack's OAuth side: `oauth.v2.access` (codes redeemed once, refresh tokens rotated as
 * Slack rotates them) and an authorize page that consents at once, for running installs locally.
 */
export class FakeOauth {
  /** Codes Slack would redeem (each once), and live refresh tokens. */
  private readonly codes = new Map<string, Record<string, unknown>>();
  private readonly refreshTokens = new Map<string, { id: string; holder: "bot" | "user" }>();
  private rotation = 0;

  issueCode(code: string, access: Record<string, unknown>): void {
    this.codes.set(code, access);
    const owner = (access.team ?? access.enterprise) as { id?: string } | null | undefined;
    const id = String(owner?.id ?? "");
    if (typeof access.refresh_token === "string") this.refreshTokens.set(access.refresh_token, { id, holder: "bot" });
    // The installing user's token rotates too, with its own refresh token.
    const user = access.authed_user as { refresh_token?: unknown } | undefined;
    if (typeof user?.refresh_token === "string") this.refreshTokens.set(user.refresh_token, { id, holder: "user" });
  }

  /** Slack's authorize page: issues a code for team T0LOCAL and redirects back with it and the state. */
  consent(url: URL): Response {
    const redirect = url.searchParams.get("redirect_uri");
    if (!redirect)
      return new Response("fake Slack: set SLACK_REDIRECT_URI so the authorize URL carries redirect_uri", { status: 400 });
    const team = "T0LOCAL";
    const code = `fake-code-${crypto.randomUUID()}`;
    this.issueCode(code, {
      app_id: "A0LOCAL",
      access_token: `xoxb-${team}-local`,
      token_type: "bot",
      scope: url.searchParams.get("scope") ?? "",
      bot_user_id: `UB${team}`,
      team: { id: team, name: `Local team ${team}` },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: "U0LOCAL" },
    });
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    back.searchParams.set("state", url.searchParams.get("state") ?? "");
    return new Response(null, { status: 302, headers: { location: back.toString() } });
  }

  access(body: Record<string, unknown>): Response {
    if (body.grant_type === "refresh_token") {
      const live = this.refreshTokens.get(String(body.refresh_token));
      if (!live) return Response.json({ ok: false, error: "invalid_refresh_token" });
      // Slack's rotation: the refresh token is spent, a new pair replaces it.
      this.refreshTokens.delete(String(body.refresh_token));
      this.rotation++;
      const refreshToken = `xoxe-1-${live.id}-${live.holder === "user" ? "user-" : ""}r${this.rotation}`;
      this.refreshTokens.set(refreshToken, live);
      return Response.json({
        ok: true,
        token_type: live.holder,
        access_token: `xoxe.${live.holder === "user" ? "xoxp" : "xoxb"}-${live.id}-r${this.rotation}`,
        refresh_token: refreshToken,
        // Slack's rotated tokens live 12 hours, whatever the install's first one had left.
        expires_in: 43_200,
      });
    }
    const access = this.codes.get(String(body.code));
    if (!access) return Response.json({ ok: false, error: "invalid_code" });
    this.codes.delete(String(body.code));
    return Response.json({ ok: true, ...access });
  }
}
