/**
 * Leader election on a coordination.k8s.io/v1 Lease (client-go's leaderelection with the
 * LeaseLock, controller-runtime's defaults 15 s / 10 s / 2 s). A candidate takes the lease when it
 * is free, released, or not renewed for a full lease duration as measured on the candidate's own
 * clock (never the holder's timestamps, so clock skew cannot cause two leaders). The leader renews
 * every retry period and gives up when it could not renew within the renew deadline. Lease calls
 * never wait out a Retry-After: a failed attempt is simply retried on the next period.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import { isAlreadyExists, isConflict, isNotFound } from "@opgen/apimachinery/status";
import type { RestClient } from "../internal/rest/http.js";
import type { Logger } from "../log/logger.js";
import { nullLogger } from "../log/logger.js";

export interface LeaderElectionConfig {
  namespace: string;
  /** The Lease name (the manager's leaderElectionId). */
  name: string;
  /** This candidate's identity; unique per process. */
  identity: string;
  /** How long a non-renewed lease blocks other candidates (default 15 000 ms). */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a renewal before it steps down (default 10 000 ms). */
  renewDeadlineMs?: number;
  /** Interval between acquire/renew attempts (default 2 000 ms). */
  retryPeriodMs?: number;
  /** Release the lease on a clean stop so a successor need not wait (default true). */
  releaseOnCancel?: boolean;
  log?: Logger;
  /** Called with true on acquiring, false on losing or releasing. */
  onStatus?: (leader: boolean) => void;
}

/** The Lease spec as it is on the wire (client-node types MicroTime as Date). */
interface Spec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface V1Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: Spec;
}

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly path: string;
  private readonly log: Logger;
  private observed?: { spec: string; at: number };
  private leader = false;

  constructor(
    private readonly rest: RestClient,
    private readonly cfg: LeaderElectionConfig,
  ) {
    this.leaseDurationMs = cfg.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = cfg.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = cfg.retryPeriodMs ?? 2_000;
    if (this.leaseDurationMs <= this.renewDeadlineMs) {
      throw new Error("leaseDurationMs must be greater than renewDeadlineMs");
    }
    if (this.renewDeadlineMs <= this.retryPeriodMs * 1.2) {
      throw new Error("renewDeadlineMs must be greater than retryPeriodMs*1.2");
    }
    this.path = `/apis/coordination.k8s.io/v1/namespaces/${cfg.namespace}/leases/${cfg.name}`;
    this.log = (cfg.log ?? nullLogger).withValues({ lease: `${cfg.namespace}/${cfg.name}` });
  }

  isLeader(): boolean {
    return this.leader;
  }

  /** Retries until the lease is ours (true) or `signal` aborts (false). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    this.log.info("attempting to acquire leader lease", { identity: this.cfg.identity });
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        this.setLeader(true);
        this.log.info("successfully acquired lease", { identity: this.cfg.identity });
        return true;
      }
      await sleep(this.retryPeriodMs * (1 + Math.random() * 0.2), signal);
    }
    return false;
  }

  /**
   * Renews until `signal` aborts ("stopped", releasing the lease if configured) or a renewal
   * could not succeed within the renew deadline ("lost").
   */
  async hold(signal: AbortSignal): Promise<"stopped" | "lost"> {
    let lastRenew = Date.now();
    while (!signal.aborted) {
      await sleep(this.retryPeriodMs, signal);
      if (signal.aborted) break;
      if (await this.tryAcquireOrRenew()) {
        lastRenew = Date.now();
        continue;
      }
      if (Date.now() - lastRenew >= this.renewDeadlineMs) {
        this.setLeader(false);
        this.log.error(
          "failed to renew lease within the renew deadline: leader election lost",
          undefined,
          {
            identity: this.cfg.identity,
          },
        );
        return "lost";
      }
    }
    if (this.cfg.releaseOnCancel ?? true) await this.release();
    this.setLeader(false);
    return "stopped";
  }

  /** Gives the lease up (holder cleared, 1 s duration) if we hold it. */
  async release(): Promise<void> {
    try {
      const lease = await this.rest.request<V1Lease>({
        method: "GET",
        path: this.path,
        timeoutMs: 5_000,
        retries: 0,
      });
      if (lease.spec?.holderIdentity !== this.cfg.identity) return;
      const now = Date.now();
      lease.spec = {
        ...lease.spec,
        holderIdentity: "",
        leaseDurationSeconds: 1,
        acquireTime: microTime(now),
        renewTime: microTime(now),
      };
      await this.rest.request({
        method: "PUT",
        path: this.path,
        body: lease,
        timeoutMs: 5_000,
        retries: 0,
      });
      this.log.info("released leader lease");
    } catch (err) {
      this.log.error("failed to release leader lease", err);
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const desired: Spec = {
      holderIdentity: this.cfg.identity,
      leaseDurationSeconds: Math.max(1, Math.round(this.leaseDurationMs / 1000)),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    let lease: V1Lease;
    try {
      lease = await this.rest.request<V1Lease>({
        method: "GET",
        path: this.path,
        timeoutMs: this.renewDeadlineMs,
        retries: 0,
      });
    } catch (err) {
      if (!isNotFound(err)) {
        this.log.error("error retrieving lease", err);
        return false;
      }
      try {
        await this.rest.request({
          method: "POST",
          path: `/apis/coordination.k8s.io/v1/namespaces/${this.cfg.namespace}/leases`,
          body: {
            apiVersion: "coordination.k8s.io/v1",
            kind: "Lease",
            metadata: { name: this.cfg.name, namespace: this.cfg.namespace },
            spec: desired,
          },
          timeoutMs: this.renewDeadlineMs,
          retries: 0,
        });
        this.observed = { spec: JSON.stringify(desired), at: now };
        return true;
      } catch (createErr) {
        if (!isAlreadyExists(createErr)) this.log.error("error creating lease", createErr);
        return false;
      }
    }
    const spec = (lease.spec ?? {}) as Spec;
    const raw = JSON.stringify(spec);
    // Expiry is measured from when *we* last saw the record change, on our clock.
    if (this.observed?.spec !== raw) this.observed = { spec: raw, at: now };
    const holder = spec.holderIdentity ?? "";
    const heldByOther = holder !== "" && holder !== this.cfg.identity;
    if (heldByOther && this.observed.at + this.leaseDurationMs > now) return false;
    if (holder === this.cfg.identity) {
      desired.acquireTime = spec.acquireTime ?? desired.acquireTime;
      desired.leaseTransitions = spec.leaseTransitions ?? 0;
    } else {
      desired.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
    }
    lease.spec = desired;
    try {
      await this.rest.request({
        method: "PUT",
        path: this.path,
        body: lease,
        timeoutMs: this.renewDeadlineMs,
        retries: 0,
      });
    } catch (err) {
      if (!isConflict(err)) this.log.error("error updating lease", err);
      return false;
    }
    this.observed = { spec: JSON.stringify(desired), at: now };
    return true;
  }

  private setLeader(leader: boolean): void {
    if (this.leader === leader) return;
    this.leader = leader;
    this.cfg.onStatus?.(leader);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
