/**
 * Kubernetes' CEL authorizer library (`apiserver: pkg/cel/library/authz.go`), as admission
 * policies use it: `authorizer.group('apps').resource('deployments').namespace('ns')
 * .name('x').check('update').allowed()`, `authorizer.path('/healthz').check('get')`,
 * `authorizer.serviceAccount(ns, name)` and `authorizer.requestResource.check(verb)`, each check
 * answered by the caller's authorizer for the request's user. The selector checks (alpha in 1.32)
 * are not provided.
 */
import type { Environment } from "@marcbachmann/cel-js";

const NS = "kubernetes.authorization";

/** What a check asks (kube's authorizer.AttributesRecord, user aside). */
export interface AuthzCheck {
  verb: string;
  resourceRequest: boolean;
  path?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface AuthzUser {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** Answers a check for a user: allowed, with the authorizer's reason, or its error. */
export type AuthzFunction = (
  user: AuthzUser,
  check: AuthzCheck,
) => { allowed: boolean; reason: string; error?: string };

export class CelAuthorizer {
  constructor(
    readonly user: AuthzUser,
    readonly authorize: AuthzFunction,
    /** The checks of the request's own resource (`authorizer.requestResource`). */
    readonly requestResource?: ResourceCheck,
  ) {}
}

class PathCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly path: string,
  ) {}
}

class GroupCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
  ) {}
}

export class ResourceCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
    readonly resource: string,
    readonly subresource = "",
    readonly namespace = "",
    readonly name = "",
  ) {}
  with(field: "subresource" | "namespace" | "name", value: string): ResourceCheck {
    const next = { ...this, [field]: value };
    return new ResourceCheck(
      this.authz,
      next.group,
      next.resource,
      next.subresource,
      next.namespace,
      next.name,
    );
  }
}

class Decision {
  constructor(
    readonly allowed: boolean,
    readonly reason: string,
    readonly error: string,
  ) {}
}

function decide(authz: CelAuthorizer, check: AuthzCheck): Decision {
  const r = authz.authorize(authz.user, check);
  return new Decision(r.allowed, r.reason, r.error ?? "");
}

/** The user kube's `serviceAccount(namespace, name)` checks as. */
function serviceAccountUser(namespace: string, name: string): AuthzUser {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`],
  };
}

export function registerAuthz(env: Environment): void {
  const A = `${NS}.Authorizer`;
  const P = `${NS}.PathCheck`;
  const G = `${NS}.GroupCheck`;
  const R = `${NS}.ResourceCheck`;
  const D = `${NS}.Decision`;
  env.registerType(A, CelAuthorizer);
  env.registerType(P, PathCheck);
  env.registerType(G, GroupCheck);
  env.registerType(R, ResourceCheck);
  env.registerType(D, Decision);
  env.registerFunction(
    `${A}.path(string): ${P}`,
    (a: CelAuthorizer, p: string) => new PathCheck(a, p),
  );
  env.registerFunction(
    `${A}.group(string): ${G}`,
    (a: CelAuthorizer, g: string) => new GroupCheck(a, g),
  );
  env.registerFunction(
    `${A}.serviceAccount(string, string): ${A}`,
    (a: CelAuthorizer, ns: string, name: string) =>
      new CelAuthorizer(serviceAccountUser(ns, name), a.authorize),
  );
  env.registerFunction(
    `${G}.resource(string): ${R}`,
    (g: GroupCheck, r: string) => new ResourceCheck(g.authz, g.group, r),
  );
  for (const f of ["subresource", "namespace", "name"] as const) {
    env.registerFunction(`${R}.${f}(string): ${R}`, (r: ResourceCheck, v: string) => r.with(f, v));
  }
  env.registerFunction(`${P}.check(string): ${D}`, (p: PathCheck, verb: string) =>
    decide(p.authz, { verb, resourceRequest: false, path: p.path }),
  );
  env.registerFunction(`${R}.check(string): ${D}`, (r: ResourceCheck, verb: string) =>
    decide(r.authz, {
      verb,
      resourceRequest: true,
      group: r.group,
      resource: r.resource,
      subresource: r.subresource,
      namespace: r.namespace,
      name: r.name,
    }),
  );
  env.registerFunction(`${D}.allowed(): bool`, (d: Decision) => d.allowed);
  env.registerFunction(`${D}.reason(): string`, (d: Decision) => d.reason);
  env.registerFunction(`${D}.errored(): bool`, (d: Decision) => d.error !== "");
  env.registerFunction(`${D}.error(): string`, (d: Decision) => d.error);
}
