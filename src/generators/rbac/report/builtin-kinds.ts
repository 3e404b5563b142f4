/**
 * Resolves the built-in kind descriptors `@opgen/runtime` exports as `kinds.X` to their group and
 * resource from the default version profile's catalog (the kinds' group, version and plural are
 * the same in every minor opgen knows), so the report can read `.owns(kinds.Pod)` without
 * loading the runtime (the CLI does not depend on it). `X` is the kind, at the group where the
 * runtime puts it (core before other groups); a unit test keeps this equal to the runtime's `kinds`.
 */
import { kubeVersion } from "@opgen/apimachinery/version";

export interface KindRef {
  group: string;
  kind: string;
  /** The resource (lower-case plural) RBAC rules name. */
  plural: string;
}

/** Runtime names that are not the kind itself: the second Event. */
const ALIASES: Readonly<Record<string, { group: string; kind: string }>> = {
  EventsV1Event: { group: "events.k8s.io", kind: "Event" },
};

/** The kind `kinds.<name>` stands for, or undefined when the runtime has no such name. */
export function builtinKind(name: string): KindRef | undefined {
  const alias = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  const candidates = kubeVersion()
    .catalog.builtinResources()
    .filter(
      (r) =>
        r.preferred &&
        r.stability === "ga" &&
        (alias ? r.group === alias.group && r.kind === alias.kind : r.kind === name),
    );
  const r = candidates.find((c) => c.group === "") ?? candidates[0];
  return r && { group: r.group, kind: r.kind, plural: r.plural };
}
