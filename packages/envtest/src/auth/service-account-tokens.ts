/**
 * Service-account tokens as kube-apiserver issues them through TokenRequest
 * (`POST .../serviceaccounts/<name>/token`, `kubectl create token`): RS256 JWTs with the
 * `kubernetes.io` claims, bound to the service account's uid (and optionally a Pod, Secret or
 * Node), with an audience and an expiry. Verification accepts a token only while it is unexpired,
 * meant for the requested audience, and everything it is bound to still exists with the same uid,
 * as the service-account authenticator does; the identity carries the JWT ID as
 * `authentication.kubernetes.io/credential-id`. JWTs are plain JSON signed with node:crypto: no
 * library needed for one algorithm.
 */
import { randomUUID, sign, verify } from "node:crypto";
import { errors, type FieldError } from "@opgen/apimachinery/status";
import { nowTime } from "../api/meta.js";
import { bucketKey } from "../api/registry.js";
import { isObject, type JsonObject, type KubeObject } from "../api/types.js";
import type { UserInfo } from "../rest/scope.js";
import type { Store } from "../store/store.js";
import { processKeyPair } from "./service-account-keys.js";

/** The audience kube-apiserver accepts by default (`--api-audiences`, the issuer). */
export const API_AUDIENCE = "https://kubernetes.default.svc.cluster.local";
const ISSUER = API_AUDIENCE;
const MIN_EXPIRATION = 600;
const DEFAULT_EXPIRATION = 3600;

const BOUND_KINDS: Record<string, { bucket: string; namespaced: boolean; claim: string }> = {
  Pod: { bucket: bucketKey("", "pods"), namespaced: true, claim: "pod" },
  Secret: { bucket: bucketKey("", "secrets"), namespaced: true, claim: "secret" },
  Node: { bucket: bucketKey("", "nodes"), namespaced: false, claim: "node" },
};

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

interface Claims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  nbf: number;
  sub: string;
  "kubernetes.io": {
    namespace: string;
    serviceaccount: { name: string; uid: string };
    pod?: { name: string; uid: string };
    secret?: { name: string; uid: string };
    node?: { name: string; uid: string };
  };
}

export class ServiceAccountTokens {
  private readonly privateKey = processKeyPair().privateKey;
  private readonly publicKey = processKeyPair().publicKey;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Answers a TokenRequest for the service account `sa`: validates `spec` as the TokenRequest
   * strategy does, and fills `status` with a signed token and its expiry.
   */
  issue(sa: KubeObject, request: KubeObject): KubeObject {
    const spec = (isObject(request.spec) ? request.spec : {}) as JsonObject;
    const namespace = sa.metadata!.namespace!;
    const expiration =
      typeof spec.expirationSeconds === "number" ? spec.expirationSeconds : DEFAULT_EXPIRATION;
    const audiences =
      Array.isArray(spec.audiences) && spec.audiences.length
        ? (spec.audiences as string[])
        : [API_AUDIENCE];
    const causes: FieldError[] = [];
    if (expiration < MIN_EXPIRATION)
      causes.push({
        type: "FieldValueInvalid",
        field: "spec.expirationSeconds",
        value: expiration,
        detail: "may not specify a duration less than 10 minutes",
      });
    if (expiration > 2 ** 32)
      causes.push({
        type: "FieldValueTooLong",
        field: "spec.expirationSeconds",
        value: expiration,
        detail: "may not specify a duration larger than 2^32 seconds",
      });
    const claims: Claims["kubernetes.io"] = {
      namespace,
      serviceaccount: { name: sa.metadata!.name!, uid: sa.metadata!.uid! },
    };
    const ref = isObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
    if (ref) {
      const kind = BOUND_KINDS[String(ref.kind)];
      if (!kind || (ref.apiVersion ?? "v1") !== "v1") {
        causes.push({
          type: "FieldValueNotSupported",
          field: "spec.boundObjectRef.kind",
          value: ref.kind,
          detail: 'supported values: "Node", "Pod", "Secret"',
        });
      } else {
        const bound = this.store.get(
          kind.bucket,
          kind.namespaced ? namespace : undefined,
          String(ref.name),
        );
        if (!bound || (ref.uid && ref.uid !== bound.metadata?.uid))
          throw errors.notFound({ group: "", resource: `${kind.claim}s` }, String(ref.name));
        claims[kind.claim as "pod"] = { name: String(ref.name), uid: bound.metadata!.uid! };
        if (
          kind.claim === "pod" &&
          isObject(bound.spec) &&
          typeof bound.spec.nodeName === "string"
        ) {
          const node = this.store.get(BOUND_KINDS.Node!.bucket, undefined, bound.spec.nodeName);
          if (node) claims.node = { name: bound.spec.nodeName, uid: node.metadata!.uid! };
        }
      }
    }
    if (causes.length)
      throw errors.invalid("TokenRequest", "authentication.k8s.io", sa.metadata!.name!, causes);

    const iat = Math.floor(this.now() / 1000);
    const body: Claims = {
      aud: audiences,
      exp: iat + expiration,
      iat,
      iss: ISSUER,
      jti: randomUUID(),
      "kubernetes.io": claims,
      nbf: iat,
      sub: `system:serviceaccount:${namespace}:${sa.metadata!.name}`,
    };
    const unsigned = `${b64({ alg: "RS256", kid: "envtest" })}.${b64(body)}`;
    const signature = sign("sha256", Buffer.from(unsigned), this.privateKey).toString("base64url");
    return {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      metadata: {
        name: sa.metadata!.name,
        namespace,
        creationTimestamp: nowTime(iat * 1000),
      },
      spec: {
        audiences,
        boundObjectRef: ref ?? null,
        expirationSeconds: expiration,
      },
      status: {
        token: `${unsigned}.${signature}`,
        expirationTimestamp: nowTime(body.exp * 1000),
      },
    };
  }

  /**
   * The identity of a token this server issued, if it is valid for one of `audiences` now and
   * what it is bound to still exists; undefined otherwise (not a JWT, another signer, expired,
   * service account or bound object gone).
   */
  verify(token: string, audiences: readonly string[] = [API_AUDIENCE]): UserInfo | undefined {
    const parts = token.split(".");
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    let claims: Claims;
    try {
      const ok = verify(
        "sha256",
        Buffer.from(`${header}.${payload}`),
        this.publicKey,
        Buffer.from(signature, "base64url"),
      );
      if (!ok) return undefined;
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claims;
    } catch {
      return undefined;
    }
    const now = Math.floor(this.now() / 1000);
    if (claims.iss !== ISSUER || claims.exp <= now || claims.nbf > now) return undefined;
    if (!claims.aud.some((a) => audiences.includes(a))) return undefined;
    const k = claims["kubernetes.io"];
    const sa = this.store.get(bucketKey("", "serviceaccounts"), k.namespace, k.serviceaccount.name);
    if (!sa || sa.metadata?.uid !== k.serviceaccount.uid) return undefined;
    const extra: Record<string, string[]> = {
      "authentication.kubernetes.io/credential-id": [`JTI=${claims.jti}`],
    };
    for (const [kind, spec] of Object.entries(BOUND_KINDS)) {
      const bound = k[spec.claim as "pod"];
      if (!bound) continue;
      const obj = this.store.get(
        spec.bucket,
        spec.namespaced ? k.namespace : undefined,
        bound.name,
      );
      // A token bound to a Pod or Secret dies with it; the node claim is informational.
      if (kind !== "Node" && (!obj || obj.metadata?.uid !== bound.uid)) return undefined;
      extra[`authentication.kubernetes.io/${spec.claim}-name`] = [bound.name];
      extra[`authentication.kubernetes.io/${spec.claim}-uid`] = [bound.uid];
    }
    return {
      name: claims.sub,
      uid: k.serviceaccount.uid,
      groups: [
        "system:serviceaccounts",
        `system:serviceaccounts:${k.namespace}`,
        "system:authenticated",
      ],
      extra,
    };
  }
}
