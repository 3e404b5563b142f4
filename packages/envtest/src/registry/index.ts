/**
 * The built-in resources envtest serves: every API group's definitions (`registry/<group>/`),
 * resolved against the catalog's discovery facts, and every other GA resource of the catalog
 * served with the generic definition. Adding a resource means adding its definition to its
 * group's module (and a group module to the list below).
 */
import type { ResourceDefinition, ResourceInfo, ScaleSubresource } from "../api/types.js";
import { admissionregistration } from "./admissionregistration/index.js";
import { apiextensions } from "./apiextensions/index.js";
import { apiregistration } from "./apiregistration/index.js";
import { apps } from "./apps/index.js";
import { authentication } from "./authentication/index.js";
import { authorization } from "./authorization/index.js";
import { autoscaling } from "./autoscaling/index.js";
import { batch } from "./batch/index.js";
import { certificates } from "./certificates/index.js";
import type { DefinitionContext, GroupDefinitions } from "./context.js";
import { coordination } from "./coordination/index.js";
import { core } from "./core/index.js";
import { discovery } from "./discovery/index.js";
import { events } from "./events/index.js";
import { flowcontrol } from "./flowcontrol/index.js";
import { networking } from "./networking/index.js";
import { node } from "./node/index.js";
import { policy } from "./policy/index.js";
import { rbac } from "./rbac/index.js";
import { scheduling } from "./scheduling/index.js";
import { storage } from "./storage/index.js";
import { genericStrategy } from "./strategy.js";

const groups: readonly GroupDefinitions[] = [
  core,
  apiregistration,
  apps,
  events,
  authentication,
  authorization,
  autoscaling,
  batch,
  certificates,
  networking,
  policy,
  rbac,
  storage,
  admissionregistration,
  apiextensions,
  scheduling,
  coordination,
  node,
  discovery,
  flowcontrol,
];

const builtinScale: ScaleSubresource = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
  labelSelectorPath: ".spec.selector",
};

/**
 * Fresh ResourceInfo records for every built-in (each server gets its own): the definitions of
 * every group, and the catalog's other GA resources (create, read, update, delete and watch with
 * schema validation, as discovery lists them), in the catalog's order.
 */
export function builtinResources(ctx: DefinitionContext): ResourceInfo[] {
  const defined = new Map<string, ResourceDefinition>();
  for (const g of groups)
    for (const d of g.resources(ctx)) defined.set(`${g.group}/${d.resource}`, d);
  const out: ResourceInfo[] = [];
  const served = new Set<string>();
  const catalog = ctx.kube.catalog;
  for (const r of catalog.builtinResources()) {
    const key = `${r.group}/${r.plural}`;
    if (served.has(key) || (!defined.has(key) && (r.stability !== "ga" || !r.preferred))) continue;
    served.add(key);
    out.push(resolve(ctx, r.group, defined.get(key) ?? { resource: r.plural }));
  }
  for (const key of defined.keys())
    if (!served.has(key))
      throw new Error(`envtest: ${key} is not a Kubernetes ${catalog.minor} resource`);
  return out;
}

/** A definition with the catalog's discovery facts of its resource. */
function resolve(ctx: DefinitionContext, group: string, d: ResourceDefinition): ResourceInfo {
  const c = ctx.kube.catalog.findResource({ group, plural: d.resource });
  if (!c)
    throw new Error(
      `envtest: ${d.resource}.${group} is not a Kubernetes ${ctx.kube.minor} resource`,
    );
  const has = (sub: string) => c.subresources.some((x) => x.name === sub);
  return {
    kube: ctx.kube,
    ...(d.sharedStorage ? { sharedStorage: d.sharedStorage } : {}),
    ...(d.virtual ? { virtual: d.virtual } : {}),
    group,
    resource: d.resource,
    kind: c.kind,
    listKind: `${c.kind}List`,
    singular: c.singular,
    namespaced: c.namespaced,
    shortNames: [...c.shortNames],
    categories: [...c.categories],
    verbs: [...c.verbs],
    versions: [
      {
        name: c.version,
        served: true,
        storage: true,
        status: has("status"),
        ...(has("scale") ? { scale: builtinScale } : {}),
        // kube warns on every request to a deprecated kind (apiserver's deprecation filter).
        ...(c.deprecatedIn
          ? {
              deprecated: true,
              deprecationWarning: `${c.group ? `${c.group}/` : ""}${c.version} ${c.kind} is deprecated in v${c.deprecatedIn}+`,
            }
          : {}),
      },
      ...(d.alsoServed?.versions ?? []).map((name) => ({
        name,
        served: true,
        storage: false,
        status: has("status"),
      })),
    ],
    ...(d.alsoServed ? { convert: d.alsoServed.convert } : {}),
    custom: false,
    generation: d.generation ?? false,
    unconditionalUpdate: !d.conditionalUpdate,
    returnDeletedObject: d.returnDeletedObject ?? false,
    ...(d.fieldLabels ? { fieldLabels: d.fieldLabels } : {}),
    strategy: d.strategy ?? genericStrategy,
    ...(d.subresources ? { subresources: d.subresources } : {}),
    ...(d.beginWrite ? { beginWrite: d.beginWrite } : {}),
  };
}
