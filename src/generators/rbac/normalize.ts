/**
 * controller-gen's `NormalizeRules` (pkg/rbac/parser.go): turns the rules of one role into the
 * smallest equivalent, deterministically ordered list of PolicyRules.
 *
 * 1. `core` becomes `""`; every list is deduplicated and sorted; rules with the same
 *    groups+resources+resourceNames+urls have their verbs unioned.
 * 2. Rules equal except for their resources are merged (resources unioned),
 * 3. then rules equal except for their groups, 4. then rules equal except for their URLs.
 * 5. Rules are sorted by the key `groups + resources + resourceNames + urls` (lists joined with
 *    `&`, byte order), so URL-only rules come first, then the core group, then the others.
 * 6. A rule whose verbs contain `*` keeps only `*`; this happens after merging, as upstream, so
 *    `get;*` and `*` do not merge with each other in steps 2-4.
 *
 * The one deliberate difference: when two merged rules end up with the same key in steps 3-4
 * (e.g. `groups=a` + `groups=b` with `get`, and `groups=a;b` with `list`), controller-gen keeps
 * whichever its map iteration visits last and silently drops the other's verbs. opgen unions their
 * verbs instead, which grants exactly what the markers ask for and is stable from run to run.
 */
import { compareGoStrings, dedupSorted } from "../../util/go-strings.js";
import type { PolicyRule } from "./rule.js";

/** The lists of one rule before and while merging. */
export interface RuleLists {
  groups: readonly string[];
  resources: readonly string[];
  resourceNames: readonly string[];
  urls: readonly string[];
  verbs: readonly string[];
}

interface WorkingRule {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

function normalized(rule: RuleLists): WorkingRule {
  return {
    groups: dedupSorted(rule.groups.map((g) => (g === "core" ? "" : g))),
    resources: dedupSorted(rule.resources),
    resourceNames: dedupSorted(rule.resourceNames),
    urls: dedupSorted(rule.urls),
    verbs: dedupSorted(rule.verbs),
  };
}

/** The four joined lists of upstream's `ruleKey`. */
function keyParts(rule: WorkingRule): [string, string, string, string] {
  return [
    rule.groups.join("&"),
    rule.resources.join("&"),
    rule.resourceNames.join("&"),
    rule.urls.join("&"),
  ];
}

/** Identity of a rule's key (upstream compares the `ruleKey` struct field by field). */
function keyId(rule: WorkingRule): string {
  return JSON.stringify(keyParts(rule));
}

/** `ruleKey.String()`, the text rules are sorted by. */
function sortKey(rule: WorkingRule): string {
  return keyParts(rule).join(" + ");
}

type ListName = "groups" | "resources" | "urls";

/** Identity of a rule with one list left out and its verbs added: rules equal under it merge. */
function keyWithout(rule: WorkingRule, omit: ListName): string {
  const parts: string[] = [];
  if (omit !== "groups") parts.push(rule.groups.join("&"));
  if (omit !== "resources") parts.push(rule.resources.join("&"));
  parts.push(rule.resourceNames.join("&"));
  if (omit !== "urls") parts.push(rule.urls.join("&"));
  parts.push(rule.verbs.join("&"));
  return JSON.stringify(parts);
}

/** Adds `rule` under its key; a rule already there gets the verbs of both. */
function putMerging(into: Map<string, WorkingRule>, rule: WorkingRule): void {
  const id = keyId(rule);
  const existing = into.get(id);
  if (existing) existing.verbs = dedupSorted([...existing.verbs, ...rule.verbs]);
  else into.set(id, rule);
}

/** Merges the rules that are equal except for `list`, unioning that list. */
function mergeAlong(rules: Iterable<WorkingRule>, list: ListName): Map<string, WorkingRule> {
  const classes = new Map<string, WorkingRule[]>();
  for (const rule of rules) {
    const id = keyWithout(rule, list);
    const members = classes.get(id);
    if (members) members.push(rule);
    else classes.set(id, [rule]);
  }
  const merged = new Map<string, WorkingRule>();
  for (const [first, ...rest] of classes.values()) {
    const rule: WorkingRule = {
      ...first!,
      [list]: dedupSorted([first![list], ...rest.map((r) => r[list])].flat()),
    };
    putMerging(merged, rule);
  }
  return merged;
}

function toPolicyRule(rule: WorkingRule): PolicyRule {
  const out: PolicyRule = { verbs: rule.verbs.includes("*") ? ["*"] : rule.verbs };
  // Key order of the object is irrelevant: the YAML writer sorts keys as yaml.v2 does.
  if (rule.groups.length > 0) out.apiGroups = rule.groups;
  if (rule.urls.length > 0) out.nonResourceURLs = rule.urls;
  if (rule.resourceNames.length > 0) out.resourceNames = rule.resourceNames;
  if (rule.resources.length > 0) out.resources = rule.resources;
  return out;
}

/** The merged, sorted PolicyRules of one role, from its rules in any order. */
export function normalizeRules(rules: Iterable<RuleLists>): PolicyRule[] {
  const byKey = new Map<string, WorkingRule>();
  for (const rule of rules) putMerging(byKey, normalized(rule));

  let merged = mergeAlong(byKey.values(), "resources");
  merged = mergeAlong(merged.values(), "groups");
  merged = mergeAlong(merged.values(), "urls");

  return [...merged.values()]
    .map((rule) => ({ rule, key: sortKey(rule) }))
    .sort((a, b) => compareGoStrings(a.key, b.key))
    .map(({ rule }) => toPolicyRule(rule));
}
