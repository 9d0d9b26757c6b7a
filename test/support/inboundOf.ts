import type { Inbound } from "../../src/inbound/types";

/** A delivery of `kind` and `type` in workspace T1, as parsing makes one, for tests of plain functions. */
export const inboundOf = (kind: Inbound["kind"], type: string, payload: Record<string, unknown>): Inbound => ({
  kind,
  dedupeKey: "Ev1",
  workspace: "T1",
  teamId: "T1",
  isEnterpriseInstall: false,
  type,
  payload,
});
