import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { deliverClaimed } from "../../src/delivery/deliverClaimed";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { directoryStub, installationObjectName, installationStub } from "../../src/rpc/installationStubs";
import { watchStub as typedWatchStub, workspaceShardStub } from "../../src/rpc/shardStub";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub, watchStub } from "../support/coordinator";
import { postMessage, seedEffects } from "../support/outboxRows";
import { courierOf } from "../support/shardIn";
import { LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

describe("one Durable Object class, its role picked by name", () => {
  it("a workspace shard refuses the watch's methods and the watch a workspace shard's; both answer operations", async () => {
    const team = newWorkspace();
    await expect(Promise.resolve(shardStub(team).health())).rejects.toThrow(`"${team}/0" is a workspace shard, not the watch`);
    await expect(Promise.resolve(shardStub(team).shardSeen("x/0", Date.now()))).rejects.toThrow("not the watch");
    await expect(Promise.resolve(watchStub().ingest({} as never))).rejects.toThrow('"watch" is the watch, not a workspace shard');
    await expect(Promise.resolve(watchStub().bucketLayouts())).rejects.toThrow("not a workspace shard");
    await expect(Promise.resolve(watchStub().reservePace("b", { perMinute: 1 } as never, "h"))).rejects.toThrow(
      "not a workspace shard",
    );
    expect((await shardStub(team).stats()).receipts).toBe(0);
    expect((await watchStub().stats()).receipts).toBe(0);
    expect(await watchStub().listParked()).toEqual([]);
  });

  it("a stub is typed for its role: our own callers cannot call another role's methods", () => {
    const namespace = (env as unknown as CoordinatorEnv).SHARD;
    const calls = [
      // @ts-expect-error a workspace shard has no health()
      () => workspaceShardStub(namespace, "T/0").health,
      // @ts-expect-error the watch records nothing
      () => typedWatchStub(namespace).ingest,
    ];
    expect(calls).toHaveLength(2);
  });
});

describe("the installation store, its role picked by name as well", () => {
  it("the directory refuses an installation's methods, an installation the directory's", async () => {
    const installations = (env as unknown as CoordinatorEnv).INSTALLATIONS!;
    const store = (name: string) => installations.get(installations.idFromName(name));
    await expect(Promise.resolve(store("directory").status())).rejects.toThrow(
      '"directory" is the directory, not an installation',
    );
    await expect(Promise.resolve(store(installationObjectName("T1")).list())).rejects.toThrow(
      `"${installationObjectName("T1")}" is an installation, not the directory`,
    );
    expect((await store("directory").list()).installations).toEqual(expect.any(Array));
    expect(await store(installationObjectName(newWorkspace())).status()).toMatchObject({ status: "absent" });
  });

  it("their stubs are typed for their role", () => {
    const installations = (env as unknown as CoordinatorEnv).INSTALLATIONS;
    const calls = [
      // @ts-expect-error the directory keeps no token
      () => directoryStub({ INSTALLATIONS: installations }).token,
      // @ts-expect-error an installation lists nothing
      () => installationStub({ INSTALLATIONS: installations }, "T1").list,
    ];
    expect(calls).toHaveLength(2);
  });
});

describe("the delivery loop tests drive is the shard's own wiring", () => {
  it("a call that fails through it is reported to the watch, as a shard's own delivery is", async () => {
    controlClock();
    const team = newWorkspace();
    const stub = shardStub(team);
    slack().fail({ channel: "C-down" }, { status: 500 });
    await seedEffects(stub, team, [{ name: "post", effect: postMessage("C-down") }]);
    await runInDurableObject(stub, async (_, state) => {
      const { courier } = courierOf(state);
      await deliverClaimed(courier, "t1", courier.outbox.claimBatch("t1", Date.now(), LEASE_MS, 10));
    });
    // The report leaves after the attempt, off its path.
    await vi.waitFor(async () =>
      expect((await watchStub().alertState()).failing).toContainEqual(
        expect.objectContaining({ label: `chat.postMessage in ${team}`, failures: 1 }),
      ),
    );
  });
});
