import { InvalidSetting } from "../platform/errors";
import type { CoordinatorEnv, InstallationsNamespace } from "./env";
import type { DirectoryApi, InstallationApi } from "./installations";

type Stub<T> = DurableObjectStub<T & Rpc.DurableObjectBranded>;

/** The object that keeps the OAuth states in flight and the list of installations. */
export const DIRECTORY = "directory";

/** The object of one installation: one per team id, or per enterprise id for an org-wide install. */
export function installationObjectName(id: string): string {
  return `installation:${id}`;
}

function namespace(env: Pick<CoordinatorEnv, "INSTALLATIONS">): InstallationsNamespace {
  if (!env.INSTALLATIONS)
    throw new InvalidSetting(
      "INSTALLATIONS",
      "binding is missing: OAuth mode keeps installations in this Durable Object namespace",
    );
  return env.INSTALLATIONS;
}

/** One installation's object; a fresh stub each call (a stub that saw an error is broken). */
export function installationStub(env: Pick<CoordinatorEnv, "INSTALLATIONS">, id: string): Stub<InstallationApi> {
  const installations = namespace(env);
  return installations.get(installations.idFromName(installationObjectName(id)));
}

/** The directory: OAuth states and the list of installations. */
export function directoryStub(env: Pick<CoordinatorEnv, "INSTALLATIONS">): Stub<DirectoryApi> {
  const installations = namespace(env);
  return installations.get(installations.idFromName(DIRECTORY));
}
