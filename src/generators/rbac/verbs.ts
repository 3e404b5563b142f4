/**
 * The verbs an RBAC rule may name. The API server accepts any string, so a typo (`lsit`, `Get`)
 * silently grants nothing and surfaces only as a 403 in production; opgen rejects verbs nobody
 * checks. Resource verbs are the request verbs of kube-apiserver plus the special verbs built-in
 * authorizers check; non-resource URLs are authorized by the lower-case HTTP method.
 */

/** Verbs for resources: the API verbs and the special ones (bind, escalate, impersonate, ...). */
export const RESOURCE_VERBS: readonly string[] = [
  "get",
  "list",
  "watch",
  "create",
  "update",
  "patch",
  "delete",
  "deletecollection",
  // Special verbs checked by built-in admission and authorization code.
  "use", // PodSecurityPolicy (removed in 1.25), still used by some policy engines
  "bind", // roles and clusterroles: bind without holding the permissions
  "escalate", // roles and clusterroles: grant more than one holds
  "impersonate", // users, groups, serviceaccounts, uids, userextras/*
  "approve", // signers: approve CertificateSigningRequests
  "sign", // signers: sign CertificateSigningRequests
  "attest", // signers: ClusterTrustBundles
  "*",
];

/** Verbs for non-resource URLs: HTTP methods, lower-case. */
export const URL_VERBS: readonly string[] = [
  "get",
  "post",
  "put",
  "patch",
  "delete",
  "head",
  "options",
  "*",
];

/**
 * Edit distance counting an adjacent transposition as one edit (optimal string alignment), since
 * the typical verb typo is swapped letters (`lsit`, `wacth`), which plain Levenshtein counts twice.
 */
function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known verb `verb` is probably a typo of: same letters in another case, or one edit away. */
export function suggestVerb(verb: string, known: readonly string[]): string | undefined {
  const lower = verb.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = osaDistance(lower, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(verb.length / 3)) ? best : undefined;
}
