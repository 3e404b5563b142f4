/**
 * The HTTP front of the API server: authentication, non-resource endpoints (`/version`, health,
 * discovery, OpenAPI), resource routing to the REST verbs, body decoding, patch types, content
 * negotiation (JSON, Table, aggregated discovery) and Status error responses. Watches are
 * streamed with headers flushed at once and disconnects detected on the response (apiserver-spec
 * §1 Node pitfalls).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { ApiError, errors } from "../api/errors.js";
import type { Registry } from "../api/registry.js";
import { deepClone, isObject, type JsonObject, type KubeObject } from "../api/types.js";
import type { TokenAuthenticator } from "../auth/tokens.js";
import { applyJsonPatch } from "../patch/jsonpatch.js";
import { applyMergePatch } from "../patch/mergepatch.js";
import { applyStrategicMergePatch } from "../patch/strategic.js";
import { deleteOptionsFrom, type ObjectRest } from "../rest/objects.js";
import { parseBool, type RequestScope, type UserInfo } from "../rest/scope.js";
import { checkWatchOptions, startWatch, type WatchSink } from "../rest/watch.js";
import type { Store } from "../store/store.js";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from "./discovery.js";
import { openApiGroupVersion, openApiRoot } from "./openapi.js";
import { decodeProtobuf } from "./protobuf.js";
import { parseResourcePath, type Verb, verbOf } from "./request.js";
import { type TableOptions, tableFor, wantsTable } from "./table.js";

/** What a request needs to be authorized (RBAC plugs in here). */
export interface Attributes {
  user: UserInfo;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path: string;
  resourceRequest: boolean;
}

export interface HandlerDeps {
  registry: Registry;
  store: Store;
  rest: ObjectRest;
  auth: TokenAuthenticator;
  serverAddress: () => string;
  /** Returns a reason string to deny, undefined to allow. */
  authorize?: (attrs: Attributes) => string | undefined;
  /** Runs before routing: fault injection (throw an ApiError, or delay). */
  before?: (attrs: Attributes) => Promise<void>;
  /** Server-side apply (application/apply-patch+yaml). */
  apply?: (scope: RequestScope, body: string, force: boolean) => { code: number; body: KubeObject };
  /** Virtual create-only resources (SelfSubjectAccessReview, …). */
  virtualCreate?: (
    scope: { group: string; resource: string; user: UserInfo },
    body: KubeObject,
  ) => KubeObject | undefined;
  /** Tracks open watches so stop() and dropWatches() can end them. */
  watches: Set<{ close(): void }>;
}

const version = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-opgen",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-01-01T00:00:00Z",
  goVersion: "go1.23.0",
  compiler: "gc",
  platform: "linux/amd64",
};

const crPatchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/apply-patch+yaml",
];
const builtinPatchTypes = [...crPatchTypes, "application/strategic-merge-patch+json"];

function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
  contentType = "application/json",
): void {
  const text = contentType === "application/yaml" ? stringifyYaml(body) : JSON.stringify(body);
  res.writeHead(code, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  res.end(text);
}

function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, err: unknown, warnings: string[] = []): void {
  const e =
    err instanceof ApiError
      ? err
      : errors.internal(err instanceof Error ? err.message : String(err));
  if (!(err instanceof ApiError)) {
    // Unexpected failures are bugs; keep them visible while still answering with a Status.
    process.emitWarning(
      `envtest internal error: ${err instanceof Error ? err.stack : String(err)}`,
    );
  }
  sendJson(res, e.code, e.status, { ...e.headers, ...warningHeader(warnings) });
}

function warningHeader(warnings: string[]): Record<string, string[]> {
  if (warnings.length === 0) return {};
  return { Warning: [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`) };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Decodes a request body: JSON, YAML, or the protobuf kubectl's typed generators send. */
async function decodeBody(req: IncomingMessage, kindHint: string): Promise<KubeObject> {
  const raw = await readBody(req);
  const ct = mediaType(req.headers["content-type"]);
  if (ct === "application/vnd.kubernetes.protobuf") {
    let decoded: KubeObject | undefined;
    try {
      decoded = decodeProtobuf(raw);
    } catch (e) {
      throw errors.badRequest(`error decoding protobuf: ${(e as Error).message}`);
    }
    if (decoded) return decoded;
    throw new ApiError(
      415,
      "UnsupportedMediaType",
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (this envtest server decodes protobuf only for Namespace, ConfigMap, Secret and access reviews: use kubectl create -f or kubectl apply -f)",
    );
  }
  if (ct && ct !== "application/json" && ct !== "application/yaml" && ct !== "*/*") {
    throw errors.unsupportedMediaType([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
  }
  let v: unknown;
  try {
    v =
      ct === "application/yaml"
        ? parseYaml(raw.toString("utf8"))
        : JSON.parse(raw.toString("utf8"));
  } catch (e) {
    throw errors.badRequest(`Object '${kindHint}' is invalid: ${(e as Error).message}`);
  }
  if (!isObject(v)) throw errors.badRequest(`Object '${kindHint}' is invalid: expected an object`);
  return v as KubeObject;
}

export function createHandler(deps: HandlerDeps) {
  const { registry, rest } = deps;

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "https://localhost");
    const path = url.pathname;
    const query = url.searchParams;
    const warnings: string[] = [];
    try {
      if (path === "/healthz" || path === "/livez" || path === "/readyz") {
        sendText(res, 200, "ok");
        return;
      }
      if (path === "/version") {
        sendJson(res, 200, version);
        return;
      }
      const user = deps.auth.authenticate(req.headers.authorization);
      if (!user) throw errors.unauthorized();
      const rp = parseResourcePath(path);
      const method = req.method ?? "GET";

      if (!rp) {
        const attrs: Attributes = {
          user,
          verb: method.toLowerCase(),
          group: "",
          resource: "",
          path,
          resourceRequest: false,
        };
        await deps.before?.(attrs);
        const denied = deps.authorize?.(attrs);
        if (denied !== undefined) {
          throw new ApiError(
            403,
            "Forbidden",
            `forbidden: User "${user.name}" cannot ${attrs.verb} path "${path}"`,
            {},
          );
        }
        handleNonResource(req, res, path);
        return;
      }

      const watch = parseBool(query.get("watch"));
      const verb = verbOf(method, rp, watch);
      const attrs: Attributes = {
        user,
        verb: verb ?? method.toLowerCase(),
        group: rp.group,
        resource: rp.resource,
        ...(rp.subresource ? { subresource: rp.subresource } : {}),
        ...(rp.namespace !== undefined ? { namespace: rp.namespace } : {}),
        ...(rp.name !== undefined ? { name: rp.name } : {}),
        path,
        resourceRequest: true,
      };
      await deps.before?.(attrs);

      const found = registry.lookup(rp.group, rp.version, rp.resource);
      if (!found) throw errors.notFoundPath();
      const { info, version: v } = found;
      if (!verb) throw errors.methodNotAllowed(method, info);
      if (rp.namespace !== undefined && !info.namespaced) throw errors.notFoundPath();
      if (rp.namespace === undefined && info.namespaced && rp.name !== undefined)
        throw errors.notFoundPath();
      const sub = rp.subresource;
      if (sub !== undefined) {
        const ok =
          (sub === "status" && v.status) ||
          (sub === "scale" && v.scale) ||
          (sub === "finalize" && info.group === "" && info.resource === "namespaces");
        if (!ok) throw errors.notFoundPath();
        if (!["get", "update", "patch"].includes(verb)) throw errors.methodNotAllowed(method, info);
      }
      const denied = deps.authorize?.(attrs);
      if (denied !== undefined) {
        // The Forbidden subject names the resource without its subresource (NewForbidden).
        const qualified = info.group ? `${info.resource}.${info.group}` : info.resource;
        const subject = rp.name ? `${qualified} "${rp.name}"` : qualified;
        const scopeText =
          rp.namespace !== undefined
            ? ` in the namespace "${rp.namespace}"`
            : " at the cluster scope";
        throw new ApiError(
          403,
          "Forbidden",
          `${subject} is forbidden: User "${user.name}" cannot ${verb} resource "${info.resource}${sub ? `/${sub}` : ""}" in API group "${info.group}"${scopeText}${denied ? `: ${denied}` : ""}`,
          {
            ...(rp.name ? { name: rp.name } : {}),
            ...(info.group ? { group: info.group } : {}),
            kind: info.resource,
          },
        );
      }

      if (info.virtual) {
        if (verb !== "create") throw errors.methodNotAllowed(method, info);
        const body = await decodeBody(req, info.kind);
        const out = deps.virtualCreate?.({ group: rp.group, resource: rp.resource, user }, body);
        if (!out) throw errors.notFoundPath();
        sendJson(res, 201, out);
        return;
      }
      const fieldManager = query.get("fieldManager");
      if (
        fieldManager !== null &&
        (fieldManager.length > 128 || !/^[\x20-\x7e]*$/.test(fieldManager))
      ) {
        throw errors.invalidOptions(
          verb === "patch" ? "PatchOptions" : verb === "create" ? "CreateOptions" : "UpdateOptions",
          [
            {
              type: "FieldValueTooLong",
              field: "fieldManager",
              detail: "may not be more than 128 bytes",
            },
          ],
        );
      }
      const ua = req.headers["user-agent"] ?? "unknown";
      const scope: RequestScope = {
        info,
        version: v,
        ...(rp.namespace !== undefined ? { namespace: rp.namespace } : {}),
        ...(rp.name !== undefined ? { name: rp.name } : {}),
        ...(sub !== undefined ? { subresource: sub } : {}),
        query,
        user,
        manager: fieldManager || ua.split("/")[0]!,
        warnings,
      };
      if (v.deprecated) {
        warnings.push(
          v.deprecationWarning ??
            `${info.group}/${v.name} ${info.kind} is deprecated; use ${info.group}/${info.versions.find((x) => x.storage)?.name ?? info.versions[0]!.name} ${info.kind}`,
        );
      }
      const tableOpts = wantsTable(req.headers.accept, query);
      negotiate(req.headers.accept);

      switch (verb) {
        case "get": {
          const obj = sub === "scale" ? rest.getScale(scope) : rest.get(scope);
          respond(res, 200, obj, scope, tableOpts, warnings, req.headers.accept);
          return;
        }
        case "list": {
          respond(res, 200, rest.list(scope), scope, tableOpts, warnings, req.headers.accept);
          return;
        }
        case "watch": {
          // The deprecated /watch/<…>/<name> form watches one object.
          if (rp.name !== undefined) {
            const fs = query.get("fieldSelector");
            query.set("fieldSelector", `metadata.name=${rp.name}${fs ? `,${fs}` : ""}`);
          }
          checkWatchOptions(scope);
          serveWatch(req, res, scope, tableOpts);
          return;
        }
        case "create": {
          const body = await decodeBody(req, info.kind);
          const r = rest.create(scope, body);
          respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
          return;
        }
        case "update": {
          const body = await decodeBody(req, info.kind);
          const r =
            sub === "scale"
              ? rest.updateScale(scope, body)
              : sub === "finalize"
                ? finalizeNamespace(scope, body)
                : rest.update(scope, body);
          respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
          return;
        }
        case "patch": {
          const r = await patch(req, scope);
          respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
          return;
        }
        case "delete":
        case "deletecollection": {
          const raw = await readBody(req);
          let body: unknown;
          if (raw.length > 0) {
            try {
              body = JSON.parse(raw.toString("utf8"));
            } catch (e) {
              throw errors.badRequest(`error decoding DeleteOptions: ${(e as Error).message}`);
            }
          }
          const opts = deleteOptionsFrom(query, body);
          const dryRunQ = query.getAll("dryRun");
          if (dryRunQ.length) opts.dryRun = [...(opts.dryRun ?? []), ...dryRunQ];
          const r =
            verb === "delete" ? rest.delete(scope, opts) : rest.deleteCollection(scope, opts);
          respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
          return;
        }
      }
    } catch (err) {
      if (!res.headersSent) sendError(res, err, warnings);
      else res.end();
    }
  };

  function finalizeNamespace(scope: RequestScope, body: KubeObject) {
    const current = rest.get(scope);
    const next = deepClone(current);
    next.spec = {
      ...((next.spec as JsonObject) ?? {}),
      finalizers: (body.spec as JsonObject | undefined)?.finalizers ?? [],
    };
    return rest.finalizeNamespace(scope, next);
  }

  async function patch(
    req: IncomingMessage,
    scope: RequestScope,
  ): Promise<{ code: number; body: KubeObject }> {
    const ct = mediaType(req.headers["content-type"]);
    const info = scope.info;
    const accepted = info.custom ? crPatchTypes : builtinPatchTypes;
    if (!accepted.includes(ct)) throw errors.unsupportedMediaType(accepted);
    const raw = (await readBody(req)).toString("utf8");
    const force = scope.query.get("force");
    const isApply = ct === "application/apply-patch+yaml";
    if (isApply) {
      if (!scope.query.get("fieldManager")) {
        throw errors.invalidOptions("PatchOptions", [
          {
            type: "FieldValueRequired",
            field: "fieldManager",
            detail: "is required for apply patch",
          },
        ]);
      }
      if (!deps.apply) throw errors.unsupportedMediaType(accepted.filter((t) => t !== ct));
      return deps.apply(scope, raw, parseBool(force));
    }
    if (force !== null) {
      throw errors.invalidOptions("PatchOptions", [
        {
          type: "FieldValueForbidden",
          field: "force",
          detail: "may not be specified for non-apply patch",
        },
      ]);
    }
    const current = scope.subresource === "scale" ? rest.getScale(scope) : rest.get(scope);
    let patched: unknown;
    if (ct === "application/json-patch+json") {
      patched = applyJsonPatch(current, raw);
    } else {
      let p: unknown;
      try {
        p = JSON.parse(raw);
      } catch (e) {
        throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
      }
      if (!isObject(p))
        throw errors.badRequest(
          "error decoding patch: json: cannot unmarshal into Go value of type map[string]interface {}",
        );
      patched =
        ct === "application/merge-patch+json"
          ? applyMergePatch(current, p)
          : applyStrategicMergePatch(current, p, info.mergeKeys ?? {});
    }
    if (!isObject(patched)) throw errors.badRequest("the patch did not produce an object");
    if (scope.subresource === "scale") return rest.updateScale(scope, patched as KubeObject);
    return rest.update(scope, patched as KubeObject, { patch: true });
  }

  function respond(
    res: ServerResponse,
    code: number,
    body: KubeObject,
    scope: RequestScope,
    tableOpts: TableOptions | undefined,
    warnings: string[],
    accept: string | undefined,
  ): void {
    if (tableOpts && body.kind !== "Status" && scope.subresource !== "scale") {
      sendJson(res, code, tableFor(scope, body, tableOpts), warningHeader(warnings));
      return;
    }
    sendJson(res, code, body, warningHeader(warnings), preferredType(accept));
  }

  function serveWatch(
    req: IncomingMessage,
    res: ServerResponse,
    scope: RequestScope,
    tableOpts: TableOptions | undefined,
  ): void {
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Transfer-Encoding": "chunked",
      "Cache-Control": "no-cache, private",
      ...warningHeader(scope.warnings),
    });
    // Without this an idle watch never reaches the client and informers hang (spec §1).
    res.flushHeaders();
    const closers: (() => void)[] = [];
    let ended = false;
    const sink: WatchSink = {
      send(type, object) {
        if (!ended) res.write(`${JSON.stringify({ type, object })}\n`);
      },
      end() {
        if (ended) return;
        ended = true;
        res.end();
      },
      onClose(fn) {
        closers.push(fn);
      },
    };
    // The request stream closes as soon as its (empty) body is read; only the response's
    // close means the client went away.
    res.on("close", () => {
      ended = true;
      for (const fn of closers) fn();
    });
    const render = tableOpts
      ? (o: KubeObject, first: boolean) => tableFor(scope, o, { ...tableOpts, noHeaders: !first })
      : undefined;
    const w = startWatch(deps.store, rest, scope, sink, render ? { render } : {});
    const handle = { close: () => w.close() };
    deps.watches.add(handle);
    res.on("close", () => deps.watches.delete(handle));
    void req;
  }

  function handleNonResource(req: IncomingMessage, res: ServerResponse, path: string): void {
    const accept = req.headers.accept ?? "";
    const aggregated =
      accept.includes("as=APIGroupDiscoveryList") &&
      /g=apidiscovery\.k8s\.io;v=v2(;|,|$)/.test(accept.replace(/\s/g, ""));
    const segs = path.split("/").filter(Boolean);
    if (path === "/api" || path === "/api/") {
      if (aggregated)
        sendJson(
          res,
          200,
          aggregatedDiscovery(registry, true),
          { Vary: "Accept" },
          aggregatedContentType,
        );
      else sendJson(res, 200, apiVersions(deps.serverAddress()));
      return;
    }
    if (path === "/apis" || path === "/apis/") {
      if (aggregated)
        sendJson(
          res,
          200,
          aggregatedDiscovery(registry, false),
          { Vary: "Accept" },
          aggregatedContentType,
        );
      else sendJson(res, 200, apiGroupList(registry));
      return;
    }
    if (segs[0] === "api" && segs.length === 2) {
      const list = apiResourceList(registry, "", segs[1]!);
      if (list) {
        sendJson(res, 200, list);
        return;
      }
    }
    if (segs[0] === "apis" && segs.length === 2) {
      const g = apiGroup(registry, segs[1]!);
      if (g) {
        sendJson(res, 200, g);
        return;
      }
    }
    if (segs[0] === "apis" && segs.length === 3) {
      const list = apiResourceList(registry, segs[1]!, segs[2]!);
      if (list) {
        sendJson(res, 200, list);
        return;
      }
    }
    if (path === "/openapi/v3" || path === "/openapi/v3/") {
      sendJson(res, 200, openApiRoot(registry));
      return;
    }
    if (segs[0] === "openapi" && segs[1] === "v3" && segs.length >= 4) {
      const isCore = segs[2] === "api";
      const doc = isCore
        ? openApiGroupVersion(registry, "", segs[3]!)
        : segs.length >= 5
          ? openApiGroupVersion(registry, segs[3]!, segs[4]!)
          : undefined;
      if (doc) {
        sendJson(res, 200, doc);
        return;
      }
    }
    throw errors.notFoundPath();
  }
}

/** JSON unless the client prefers YAML (the first acceptable type it lists). */
function preferredType(accept: string | undefined): string {
  for (const t of (accept ?? "").split(",")) {
    const type = t.split(";")[0]!.trim().toLowerCase();
    if (type === "application/yaml") return "application/yaml";
    if (type === "application/json" || type === "*/*" || type === "application/*")
      return "application/json";
  }
  return "application/json";
}

/** 406 when the client accepts nothing we can produce. */
function negotiate(accept: string | undefined): void {
  if (!accept) return;
  const types = accept.split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  const ok = types.some(
    (t) =>
      t === "*/*" ||
      t === "application/*" ||
      t === "application/json" ||
      t === "application/yaml" ||
      t === "",
  );
  if (!ok)
    throw errors.notAcceptable([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
}

export type { Verb };
