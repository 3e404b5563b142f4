import type { SpokeConversion } from "@opgen/runtime";
import type { AppCluster as AppClusterV1 } from "../v1/appcluster.types.js";
import type { AppCluster } from "./appcluster.types.js";

/**
 * v2 ⇄ v1 (the hub): `spec.replicas` is v1's `spec.size`; status is the same in both. A field
 * left unset stays unset (no key), so a round trip returns the object it started from.
 */
export const AppClusterV2Conversion: SpokeConversion<AppCluster, AppClusterV1> = {
  toHub(src) {
    const { replicas, ...rest } = src.spec ?? {};
    return {
      apiVersion: "demo.my.domain/v1",
      kind: "AppCluster",
      metadata: src.metadata,
      spec: { ...rest, ...(replicas === undefined ? {} : { size: replicas }) },
      status: src.status && { ...src.status },
    };
  },

  fromHub(hub) {
    const { size, ...rest } = hub.spec ?? {};
    return {
      apiVersion: "demo.my.domain/v2",
      kind: "AppCluster",
      metadata: hub.metadata,
      spec: { ...rest, ...(size === undefined ? {} : { replicas: size }) },
      status: hub.status && { ...hub.status },
    };
  },
};
