/**
 * Reads outside the cache's scope, against envtest: a namespace-scoped cache refuses a get or list
 * of another namespace with an error naming the request and the scope (never a false NotFound),
 * or reads it from the API server when `readsOutsideScope: "apiserver"`; a real miss in scope is
 * still NotFound; the cache refuses kinds it has no synced informer for.
 */
import type { V1ConfigMap } from "@kubernetes/client-node";
import type { TestEnv } from "@opgen/envtest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  byObject,
  ignoreNotFound,
  isNotFound,
  isResourceNotCached,
  kinds,
  type Manager,
  type ManagerOptions,
  ResourceNotCachedError,
} from "../../src/index.js";
import { namespace, newManager, run, startEnv } from "./helpers.js";

let env: TestEnv;
let setup: Manager;
let inside: string;
let outside: string;
beforeAll(async () => {
  env = await startEnv();
  setup = newManager(env);
  inside = await namespace(setup, "in");
  outside = await namespace(setup, "out");
  for (const ns of [inside, outside]) {
    await setup.apiReader.create(cm(ns, "cm", { "managed-by": "us" }));
    await setup.apiReader.create(cm(ns, "unlabelled"));
  }
});
afterAll(async () => {
  await env?.stop();
});

function cm(ns: string, name: string, labels?: Record<string, string>): V1ConfigMap {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: ns, ...(labels ? { labels } : {}) },
    data: { ns },
  };
}

/** Starts a manager whose cache has a ConfigMap informer, runs `fn`, stops it. */
async function withManager(opts: ManagerOptions, fn: (mgr: Manager) => Promise<void>) {
  const mgr = newManager(env, opts);
  mgr.cache.informerFor(kinds.ConfigMap);
  const m = run(mgr);
  try {
    await mgr.elected; // after the caches synced
    await fn(mgr);
  } finally {
    await m.stop();
  }
}

/** Counts the reads the cache answers (the informer's own watch requests make request counts useless). */
function cacheReads(mgr: Manager) {
  const get = vi.spyOn(mgr.cache, "get");
  const list = vi.spyOn(mgr.cache, "list");
  return () => get.mock.calls.length + list.mock.calls.length;
}

async function refusal(p: Promise<unknown>): Promise<ResourceNotCachedError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ResourceNotCachedError);
  expect(isNotFound(err)).toBe(false);
  return err as ResourceNotCachedError;
}

describe("cache scope", () => {
  it("refuses a get or list of a namespace outside a namespaced cache, naming both", async () => {
    await withManager({ namespaces: [inside] }, async (mgr) => {
      const get = await refusal(
        mgr.client.get(kinds.ConfigMap, { namespace: outside, name: "cm" }),
      );
      expect(get.reason).toBe("namespace");
      expect(get.namespace).toBe(outside);
      expect(get.kind).toBe("ConfigMap (v1)");
      expect(get.message).toContain(
        `unable to get: ${outside}/cm because of unknown namespace for the cache: ConfigMap (v1) is cached in namespace "${inside}" only`,
      );
      const list = await refusal(mgr.client.list(kinds.ConfigMap, { namespace: outside }));
      expect(list.message).toContain(`unable to list: ${outside} because of unknown namespace`);
      expect(list.message).toContain(`"${inside}"`);
      // ignoreNotFound must not swallow it: the reconcile fails loudly instead of acting on "absent".
      await expect(
        mgr.client.get(kinds.ConfigMap, { namespace: outside, name: "cm" }).catch(ignoreNotFound),
      ).rejects.toSatisfy(isResourceNotCached);
      // The same refusal from the cache itself.
      expect(() => mgr.cache.get(kinds.ConfigMap, { namespace: outside, name: "cm" })).toThrow(
        ResourceNotCachedError,
      );
    });
  });

  it("still answers in scope from memory, and a real miss in scope is NotFound", async () => {
    await withManager({ namespaces: [inside] }, async (mgr) => {
      const reads = cacheReads(mgr);
      const got = await mgr.client.get(kinds.ConfigMap, { namespace: inside, name: "cm" });
      expect(got.data).toEqual({ ns: inside });
      await expect(
        mgr.client.get(kinds.ConfigMap, { namespace: inside, name: "missing" }),
      ).rejects.toSatisfy(isNotFound);
      // A list of all namespaces covers the watched ones, as controller-runtime's does.
      const all = await mgr.client.list(kinds.ConfigMap);
      expect(new Set(all.map((c) => c.metadata?.namespace))).toEqual(new Set([inside]));
      expect(reads()).toBe(3);
      // Explicitly uncached reads and the API reader are not limited by the cache.
      const live = await mgr.client.get(
        kinds.ConfigMap,
        { namespace: outside, name: "cm" },
        { uncached: true },
      );
      expect(live.data).toEqual({ ns: outside });
      expect(
        (await mgr.apiReader.get(kinds.ConfigMap, { namespace: outside, name: "cm" })).data,
      ).toEqual({ ns: outside });
    });
  });

  it('reads outside the scope from the API server with readsOutsideScope: "apiserver"', async () => {
    await withManager(
      { namespaces: [inside], cache: { readsOutsideScope: "apiserver" } },
      async (mgr) => {
        const reads = cacheReads(mgr);
        // The informer watches `inside` only: whatever answers for `outside` is the API server.
        const got = await mgr.client.get(kinds.ConfigMap, { namespace: outside, name: "cm" });
        expect(got.data).toEqual({ ns: outside });
        expect(got.kind).toBe("ConfigMap");
        const listed = await mgr.client.list(kinds.ConfigMap, { namespace: outside });
        // The namespace's kube-root-ca.crt (the root CA publisher's) is there too, as on a cluster.
        expect(listed.map((c) => c.metadata?.name).sort()).toEqual([
          "cm",
          "kube-root-ca.crt",
          "unlabelled",
        ]);
        await expect(
          mgr.client.get(kinds.ConfigMap, { namespace: outside, name: "missing" }),
        ).rejects.toSatisfy(isNotFound);
        expect(reads()).toBe(0);
        // In scope it stays a memory read.
        await mgr.client.get(kinds.ConfigMap, { namespace: inside, name: "cm" });
        expect(reads()).toBe(1);
      },
    );
  });

  it("applies a kind's own namespaces (byObject) over the default", async () => {
    await withManager(
      { cache: { byObject: byObject(kinds.ConfigMap, { namespaces: [inside] }) } },
      async (mgr) => {
        const err = await refusal(
          mgr.client.get(kinds.ConfigMap, { namespace: outside, name: "cm" }),
        );
        expect(err.message).toContain(`is cached in namespace "${inside}" only`);
      },
    );
  });

  it("confirms a miss of a selector-scoped kind with the API server when configured", async () => {
    const scoped = byObject(kinds.ConfigMap, { labelSelector: "managed-by=us" });
    await withManager({ cache: { byObject: scoped } }, async (mgr) => {
      // As controller-runtime: the informer only holds what the selector lets in.
      await expect(
        mgr.client.get(kinds.ConfigMap, { namespace: inside, name: "unlabelled" }),
      ).rejects.toSatisfy(isNotFound);
    });
    await withManager(
      { cache: { byObject: scoped, readsOutsideScope: "apiserver" } },
      async (mgr) => {
        const got = await mgr.client.get(kinds.ConfigMap, {
          namespace: inside,
          name: "unlabelled",
        });
        expect(got.metadata?.name).toBe("unlabelled");
        await expect(
          mgr.client.get(kinds.ConfigMap, { namespace: inside, name: "missing" }),
        ).rejects.toSatisfy(isNotFound);
      },
    );
  });

  it("refuses direct cache reads of a kind it has no informer for, or before it synced", async () => {
    const mgr = newManager(env, { namespaces: [inside] });
    mgr.cache.informerFor(kinds.ConfigMap);
    const early = (() => {
      try {
        mgr.cache.get(kinds.ConfigMap, { namespace: inside, name: "cm" });
      } catch (e) {
        return e as ResourceNotCachedError;
      }
    })();
    expect(early?.reason).toBe("notSynced");
    expect(early?.message).toContain("the cache of ConfigMap (v1) has not synced yet");
    // Before the sync the client reads from the API server rather than from an empty store.
    expect((await mgr.client.get(kinds.ConfigMap, { namespace: inside, name: "cm" })).data).toEqual(
      { ns: inside },
    );
    const m = run(mgr);
    try {
      await mgr.elected;
      let kindErr: unknown;
      try {
        mgr.cache.list(kinds.Secret, { namespace: inside });
      } catch (e) {
        kindErr = e;
      }
      expect(kindErr).toBeInstanceOf(ResourceNotCachedError);
      expect((kindErr as ResourceNotCachedError).reason).toBe("kind");
      expect((kindErr as Error).message).toContain(
        `unable to list: ${inside}: Secret (v1) is not in the cache, no informer watches it (cached: ConfigMap (v1))`,
      );
      // The client reads a kind nothing watches from the API server (no informer is started).
      await expect(
        mgr.client.get(kinds.Secret, { namespace: outside, name: "none" }),
      ).rejects.toSatisfy(isNotFound);
      expect(mgr.cache.has(kinds.Secret)).toBe(false);
    } finally {
      await m.stop();
    }
  });
});
