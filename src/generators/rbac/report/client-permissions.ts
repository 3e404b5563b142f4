/**
 * Checks the reconcilers' statically visible client calls against the roles. A `get` or `list` of
 * a kind some controller watches is served from the shared informer cache (whose `list`/`watch`
 * the informer check covers); any other read, an `{ uncached: true }` read and every `delete` goes
 * to the API server and needs its own verb. A namespaced Role counts here, since the call may well
 * stay in that namespace; a gap becomes a warning at the call.
 */
import type { Diagnostic } from "../../../source/diagnostics.js";
import type { RbacRoleObject } from "../rule.js";
import type { ClientCall } from "./client-calls.js";
import type { ControllerSetup } from "./controller-setup.js";
import { roleAllows } from "./permissions.js";

export interface ClientCallCheck {
  setup: ControllerSetup;
  call: ClientCall;
  /** Served from the informer cache: no permission beyond the informer's. */
  fromCache: boolean;
  /** No role the manager holds grants the call's verb. */
  missing: boolean;
}

export const CLIENT_VERB_WORDS = { get: "gets", list: "lists", delete: "deletes" } as const;

export function checkClientCalls(
  setups: readonly ControllerSetup[],
  roles: readonly RbacRoleObject[],
  roleName: string,
): ClientCallCheck[] {
  const cached = new Set<string>();
  for (const setup of setups) {
    for (const watched of setup.watched) {
      if (watched.kind) cached.add(`${watched.kind.group}/${watched.kind.plural}`);
    }
  }
  const held = roles.filter((role) => role.kind === "Role" || role.metadata.name === roleName);
  const checks: ClientCallCheck[] = [];
  for (const setup of setups) {
    for (const call of setup.clientCalls) {
      const { group, plural } = call.kind;
      const fromCache =
        call.verb !== "delete" && !call.uncached && cached.has(`${group}/${plural}`);
      const missing =
        !fromCache && !held.some((role) => roleAllows(role, group, plural, call.verb));
      checks.push({ setup, call, fromCache, missing });
    }
  }
  return checks;
}

export function clientCallWarnings(checks: readonly ClientCallCheck[]): Diagnostic[] {
  return checks
    .filter((check) => check.missing)
    .map(({ setup, call }) => {
      const group = call.kind.group === "" ? "core" : call.kind.group;
      const reconciler = setup.reconciler?.node.name?.text ?? "the reconciler";
      return {
        severity: "warning" as const,
        file: call.position.file,
        line: call.position.line,
        column: call.position.column,
        message:
          `${reconciler} ${CLIENT_VERB_WORDS[call.verb]} ${call.kind.plural} (group ${group}) ` +
          `through the API server but no role grants ${call.verb} on them; ` +
          `add @rbac groups=${group},resources=${call.kind.plural},verbs=${call.verb}`,
      };
    });
}
