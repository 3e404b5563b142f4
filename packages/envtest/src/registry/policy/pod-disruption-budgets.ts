/**
 * PodDisruptionBudgets (`pkg/registry/policy/poddisruptionbudget`): the columns kubectl prints,
 * and what a budget covers (read by the eviction API and the disruption controller).
 */
import { labelSelectorAsSelector } from "@opgen/apimachinery/selectors";
import { bucketKey } from "../../api/registry.js";
import type { JsonObject, KubeObject } from "../../api/types.js";
import { namedPrinter } from "../printing.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

export const PDBS = bucketKey("policy", "poddisruptionbudgets");
export const PDB_RESOURCE = { group: "policy", version: "v1", resource: "poddisruptionbudgets" };

/** What an eviction needs of the disruption controller: a budget's status, brought up to date. */
export interface BudgetStatusSync {
  sync(pdb: KubeObject): Promise<KubeObject>;
}

/**
 * Whether a budget covers a pod by its selector (policy/v1: an empty selector matches every
 * pod, a missing or invalid one none).
 */
export function budgetSelects(pdb: KubeObject): (pod: KubeObject) => boolean {
  try {
    const selector = labelSelectorAsSelector(
      ((pdb.spec as JsonObject | undefined)?.selector ?? null) as never,
    );
    return (pod) => selector.matches(pod.metadata?.labels ?? {});
  } catch {
    return () => false;
  }
}

export const podDisruptionBudgets: ResourceStrategy = {
  nameRule: "subdomain",
  printer: () =>
    namedPrinter(
      [
        {
          name: "Min Available",
          type: "string",
          description: "The minimum number of pods that must be available.",
        },
        {
          name: "Max Unavailable",
          type: "string",
          description: "The maximum number of pods that may be unavailable.",
        },
        {
          name: "Allowed Disruptions",
          type: "integer",
          description: "Calculated number of pods that may be disrupted at this time.",
        },
      ],
      (o) => {
        const spec = objectAt(o.spec);
        return [
          spec.minAvailable ?? "N/A",
          spec.maxUnavailable ?? "N/A",
          objectAt(o.status).disruptionsAllowed ?? 0,
        ];
      },
    ),
};
