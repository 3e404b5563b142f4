/** Leader election on a Lease between managers in one process, with short durations. */
import { eventually, type TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds, type Manager, type ManagerOptions } from "../../src/index.js";
import { AppClusterKind, namespace, newManager, run, startEnv } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

const fast: ManagerOptions = {
  leaderElection: true,
  leaderElectionNamespace: "default",
  leaseDurationMs: 1500,
  renewDeadlineMs: 1000,
  retryPeriodMs: 200,
};

async function leaderGauge(mgr: Manager, id: string): Promise<number | undefined> {
  const m = await mgr.metrics.registry.getSingleMetric("leader_election_master_status")?.get();
  return m?.values.find((v) => v.labels.name === id)?.value;
}

function candidate(id: string, extra: ManagerOptions = {}) {
  const mgr = newManager(env, { ...fast, leaderElectionId: id, ...extra });
  const reconciled: string[] = [];
  mgr.controller(AppClusterKind).complete({
    reconcile: async (req) => {
      reconciled.push(req.name);
      return {};
    },
  });
  let elected = false;
  void mgr.elected.then(() => {
    elected = true;
  });
  return { mgr, reconciled, isElected: () => elected };
}

describe("leader election", () => {
  it("hands over to the standby when the leader stops (lease released)", async () => {
    const a = candidate("handover.test");
    const b = candidate("handover.test");
    const ra = run(a.mgr);
    await a.mgr.elected;
    const rb = run(b.mgr);
    const ns = await namespace(a.mgr);
    await a.mgr.client.create({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "x", namespace: ns },
      spec: {},
    });
    await eventually(() => expect(a.reconciled).toContain("x"), { timeout: 5000 });
    // The standby stays a standby well past a lease duration while the leader renews.
    await new Promise((r) => setTimeout(r, 2000));
    expect(b.isElected()).toBe(false);
    expect(b.reconciled).toEqual([]);
    expect(await leaderGauge(a.mgr, "handover.test")).toBe(1);
    expect(await leaderGauge(b.mgr, "handover.test")).toBe(0);
    const lease = await a.mgr.client.get(kinds.Lease, {
      namespace: "default",
      name: "handover.test",
    });
    expect(lease.spec?.holderIdentity).toMatch(/_/);
    expect(lease.spec?.leaseDurationSeconds).toBe(2);

    const stoppedAt = Date.now();
    await ra.stop(); // releases the lease
    await b.mgr.elected;
    // Released, so no need to wait for expiry: one or two retry periods.
    expect(Date.now() - stoppedAt).toBeLessThan(1500);
    await eventually(() => expect(b.reconciled).toContain("x"), { timeout: 5000 });
    const after = await b.mgr.client.get(
      kinds.Lease,
      { namespace: "default", name: "handover.test" },
      { uncached: true },
    );
    expect(after.spec?.holderIdentity).not.toBe(lease.spec?.holderIdentity);
    expect(after.spec?.leaseTransitions).toBe((lease.spec?.leaseTransitions ?? 0) + 1);
    await rb.stop();
  });

  it("takes over an unreleased lease only after it expires", async () => {
    const a = candidate("expiry.test", { leaderElectionReleaseOnCancel: false });
    const ra = run(a.mgr);
    await a.mgr.elected;
    await ra.stop(); // does not release: as if the process died
    const b = candidate("expiry.test");
    const started = Date.now();
    const rb = run(b.mgr);
    await b.mgr.elected;
    // b must observe the lease unchanged for a full lease duration on its own clock.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    await rb.stop();
  });

  it("stops the manager with an error when the lease is lost", async () => {
    const a = candidate("lost.test");
    const ra = run(a.mgr);
    await a.mgr.elected;
    // Another party takes the lease behind the leader's back.
    const lease = await a.mgr.client.get(
      kinds.Lease,
      { namespace: "default", name: "lost.test" },
      { uncached: true },
    );
    lease.spec = { ...lease.spec, holderIdentity: "intruder", leaseDurationSeconds: 60 };
    // Keep renewing as the intruder so the lease never looks expired.
    const intruder = setInterval(async () => {
      try {
        const l = await a.mgr.apiReader.get(kinds.Lease, {
          namespace: "default",
          name: "lost.test",
        });
        if (l.spec) l.spec.renewTime = new Date() as never;
        l.spec = { ...l.spec, holderIdentity: "intruder" };
        await a.mgr.apiReader.update(l);
      } catch {
        // conflicts with the leader's renewals are expected
      }
    }, 100);
    try {
      await a.mgr.apiReader.update(lease);
      await expect(ra.done).rejects.toThrow(/leader election lost: lost.test/);
      expect(await leaderGauge(a.mgr, "lost.test")).toBe(0);
    } finally {
      clearInterval(intruder);
    }
  });

  it("cancels in-flight reconciles instead of draining them when the lease is lost", async () => {
    // A minute of grace would outlast the test: only skipping the drain lets the manager stop.
    const mgr = newManager(env, {
      ...fast,
      leaderElectionId: "lost-drain.test",
      gracefulShutdownTimeoutMs: 60_000,
    });
    let inFlight: AbortSignal | undefined;
    mgr.controller(AppClusterKind).complete({
      reconcile: (_req, ctx) =>
        new Promise((resolve) => {
          inFlight = ctx.signal;
          // Ends only when cancelled: a reconcile still writing while another replica leads.
          ctx.signal.addEventListener("abort", () => resolve({}), { once: true });
        }),
    });
    const r = run(mgr);
    await mgr.elected;
    const ns = await namespace(mgr);
    await mgr.client.create({
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: { name: "busy", namespace: ns },
      spec: {},
    });
    await eventually(() => expect(inFlight).toBeDefined(), { timeout: 5000 });
    const steal = async () => {
      const l = await mgr.apiReader.get(kinds.Lease, {
        namespace: "default",
        name: "lost-drain.test",
      });
      l.spec = { ...l.spec, holderIdentity: "intruder", renewTime: new Date() as never };
      await mgr.apiReader.update(l);
    };
    const intruder = setInterval(() => steal().catch(() => {}), 100);
    try {
      await expect(r.done).rejects.toThrow(/leader election lost: lost-drain.test/);
      expect(inFlight?.aborted).toBe(true);
    } finally {
      clearInterval(intruder);
    }
  });
});
