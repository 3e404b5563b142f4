/**
 * `namespaceSelector="..."` / `objectSelector="..."`: a label selector written as `kubectl -l`
 * takes it, turned into the metav1.LabelSelector a webhook carries, as metav1.ParseToLabelSelector
 * does: `k=v` / `k==v` become matchLabels, `in`, `notin`, `!=`, `k` and `!k` matchExpressions.
 * opgen's first-class form of what controller-gen only offers through a raw `patch`.
 */
import { parseLabelSelector } from "@opgen/apimachinery/selectors";

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function selectorFromString(
  text: string,
): { selector: LabelSelectorObject } | { problem: string } {
  let parsed: ReturnType<typeof parseLabelSelector>;
  try {
    parsed = parseLabelSelector(text);
  } catch (e) {
    return { problem: (e as Error).message };
  }
  const matchLabels: Record<string, string> = {};
  const matchExpressions: NonNullable<LabelSelectorObject["matchExpressions"]> = [];
  for (const r of parsed.requirements) {
    switch (r.operator) {
      case "Equals":
        if (r.key in matchLabels && matchLabels[r.key] !== r.values[0]) {
          return { problem: `label ${r.key} is required to equal two different values` };
        }
        matchLabels[r.key] = r.values[0]!;
        break;
      case "NotEquals":
        matchExpressions.push({ key: r.key, operator: "NotIn", values: [...r.values] });
        break;
      case "In":
      case "NotIn":
        matchExpressions.push({ key: r.key, operator: r.operator, values: [...r.values] });
        break;
      case "Exists":
      case "DoesNotExist":
        matchExpressions.push({ key: r.key, operator: r.operator });
        break;
      default:
        return {
          problem: `${r.key}: a webhook's label selector has no ${r.operator === "GreaterThan" ? ">" : "<"} (only =, ==, !=, in, notin, exists and !exists)`,
        };
    }
  }
  return {
    selector: {
      ...(Object.keys(matchLabels).length ? { matchLabels } : {}),
      ...(matchExpressions.length ? { matchExpressions } : {}),
    },
  };
}
