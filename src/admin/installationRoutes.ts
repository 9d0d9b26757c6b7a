import { Rejection } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import { directoryStub, installationStub } from "../rpc/installationStubs";
import { oauthMode } from "../settings";

function requireOAuth(env: CoordinatorEnv): void {
  if (!oauthMode(env))
    throw new Rejection(
      404,
      "no installations: single-workspace mode (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are not both set)",
    );
}

/** GET /admin/installations and DELETE /admin/installations/{id}: summaries only, never a token. */
export const installationRoutes = {
  async list(request: Request, env: CoordinatorEnv): Promise<Response> {
    requireOAuth(env);
    const params = new URL(request.url).searchParams;
    const limit = Number(params.get("limit") ?? 100);
    const page = await directoryStub(env).list(params.get("cursor") ?? undefined, Number.isInteger(limit) ? limit : 100);
    return Response.json(page);
  },

  async remove(id: string, env: CoordinatorEnv): Promise<Response> {
    requireOAuth(env);
    if (!(await installationStub(env, id).remove(id))) throw new Rejection(404, "no installation with that id");
    return Response.json({ deleted: 1 });
  },
};
