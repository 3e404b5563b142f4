/** PodDisruptionBudgets (`pkg/registry/policy/poddisruptionbudget`): the columns kubectl prints. */
import { namedPrinter } from "../printing.js";
import { objectAt, type ResourceStrategy } from "../strategy.js";

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
