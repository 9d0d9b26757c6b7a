import { afterEach, describe, expect, it, vi } from "vitest";
import { signedEvent } from "../../src/testing/deliveries";
import { deliverWithSettings, mentionDelivery, newWorkspace, signedBy } from "../support/coordinator";

afterEach(() => vi.restoreAllMocks());

/** The `slack request` lines logged while `send` runs, as parsed JSON. */
async function requestLines(send: () => Promise<Response>): Promise<{ status: number; lines: Record<string, unknown>[] }> {
  const written: string[] = [];
  for (const level of ["log", "warn", "error"] as const)
    vi.spyOn(console, level).mockImplementation((line: unknown) => void written.push(String(line)));
  const response = await send();
  vi.restoreAllMocks();
  const lines = written
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === "slack request");
  return { status: response.status, lines };
}

describe("the `slack request` log line (LOG_ACKED_REQUESTS)", () => {
  it("by default a recorded delivery's 200 and its duplicate are not logged; a refused request is", async () => {
    const { delivery } = await mentionDelivery(newWorkspace());
    const accepted = await requestLines(() => deliverWithSettings(delivery, {}));
    const duplicate = await requestLines(() => deliverWithSettings(delivery, {}));
    const forged = await requestLines(async () =>
      deliverWithSettings(await signedEvent(JSON.parse(delivery.body), signedBy({ secret: "not-the-secret" })), {}),
    );
    expect(accepted).toEqual({ status: 200, lines: [] });
    expect(duplicate).toEqual({ status: 200, lines: [] });
    expect(forged.status).toBe(401);
    expect(forged.lines).toEqual([expect.objectContaining({ status: 401, level: "info" })]);
  });

  it("LOG_ACKED_REQUESTS=true logs every request, the accepted one with its dedupe key and shard", async () => {
    const team = newWorkspace();
    const { delivery } = await mentionDelivery(team);
    const accepted = await requestLines(() => deliverWithSettings(delivery, { LOG_ACKED_REQUESTS: "true" }));
    expect(accepted.status).toBe(200);
    expect(accepted.lines).toEqual([
      expect.objectContaining({ status: 200, outcome: "accepted", shard: `${team}/0`, dedupeKey: expect.any(String) }),
    ]);
  });
});
