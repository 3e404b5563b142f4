/**
 * Bearer-token authentication: the admin identity (group `system:masters`, as envtest's admin
 * user) plus tokens minted per user or service account. Service-account users get the groups
 * the real token authenticator adds; everyone authenticated gets `system:authenticated`.
 * Tokens issued through TokenRequest (JWTs) are checked by `serviceAccounts`, as kube-apiserver
 * chains its static-token and service-account authenticators.
 */
import { randomBytes } from "node:crypto";
import type { UserInfo } from "../rest/scope.js";

export class TokenAuthenticator {
  private readonly tokens = new Map<string, UserInfo>();
  readonly adminToken: string;

  constructor() {
    this.adminToken = this.mint("admin", ["system:masters"]);
  }

  private mint(name: string, groups: string[]): string {
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, { name, groups: [...new Set([...groups, "system:authenticated"])] });
    return token;
  }

  /** A token for `user` (reused for the same user and groups). */
  tokenFor(user: string, groups: string[] = []): string {
    const all = [...groups];
    const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
    if (sa) all.push("system:serviceaccounts", `system:serviceaccounts:${sa[1]}`);
    const want = [...new Set([...all, "system:authenticated"])].sort().join(",");
    for (const [token, info] of this.tokens) {
      if (info.name === user && [...info.groups].sort().join(",") === want) return token;
    }
    return this.mint(user, all);
  }

  /** Verifies service-account JWTs (set by the server, which owns the store they check). */
  serviceAccounts?: { verify(token: string, audiences?: readonly string[]): UserInfo | undefined };

  /** The user of an `Authorization: Bearer …` header, or undefined (401). */
  authenticate(header: string | undefined): UserInfo | undefined {
    if (!header) return undefined;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return m ? this.authenticateToken(m[1]!) : undefined;
  }

  /** The user of a bearer token (TokenReview passes the audiences it asks about). */
  authenticateToken(token: string, audiences?: readonly string[]): UserInfo | undefined {
    return this.tokens.get(token) ?? this.serviceAccounts?.verify(token, audiences);
  }
}
