/**
 * The HTTP front of the API server: authentication, authorization and fault hooks, routing of
 * resource paths to the REST verbs (scope checks, subresources, 404/405), and the response
 * format each verb gets (object, List, Table, watch stream). Bodies, patches, watches and the
 * non-resource endpoints have their own modules.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { Registry } from "../api/registry.js";
import { subresourcesOf } from "../api/subresources.js";
import type { KubeObject } from "../api/types.js";
import type { TokenAuthenticator } from "../auth/tokens.js";
import { deleteOptionsFrom } from "../rest/delete-options.js";
import type { ObjectRest } from "../rest/objects.js";
import type { RequestScope } from "../rest/scope.js";
import { checkWatchOptions } from "../rest/watch.js";
import { validateWriteOptions } from "../rest/write-options.js";
import { retryConcurrent } from "../rest/write-steps.js";
import type { Store } from "../store/store.js";
import { authentication } from "./filters/authentication.js";
import { type Attributes, authorization } from "./filters/authorization.js";
import { chain, type RequestContext } from "./filters/context.js";
import { faults } from "./filters/faults.js";
import { impersonation } from "./filters/impersonation.js";
import {
  defaultInFlightLimits,
  type InFlightLimits,
  maxInFlight,
} from "./filters/max-in-flight.js";
import { requestInfo } from "./filters/request-info.js";
import { goEncoded } from "./go-encoding.js";
import { serveHealth } from "./health.js";
import type { ApiServerMetrics } from "./metrics.js";
import {
  JSON_TYPE,
  negotiateOutput,
  PROTOBUF,
  SERVED_TYPES,
  STREAM_TYPES,
  YAML_TYPE,
} from "./negotiation.js";
import { handleNonResource, versionInfo } from "./non-resource.js";
import {
  partialObjectMetadata,
  toPartialMetadata,
  wantsPartialMetadata,
} from "./partial-metadata.js";
import { type ApplyFn, patch } from "./patch.js";
import { encodeProtobuf } from "./protobuf.js";
import type { Verb } from "./request.js";
import { type TableOptions, tableFor, wantsTable } from "./table.js";
import { serveWatch } from "./watch-stream.js";
import {
  bodyFacts,
  decodeBody,
  readBody,
  sendError,
  sendJson,
  sendProtobuf,
  warningHeader,
} from "./wire.js";

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
  apply?: ApplyFn;
  /** The max-in-flight limits (kube-apiserver's defaults when unset). */
  inFlightLimits?: InFlightLimits;
  /** Request metrics served at /metrics. */
  metrics?: ApiServerMetrics;
  /** Tracks open watches so stop() and dropWatches() can end them. */
  watches: Set<{ close(): void }>;
}

export function createHandler(deps: HandlerDeps) {
  const { registry, rest } = deps;
  // kube-apiserver's handler chain, outermost first (`server/config.go` DefaultBuildHandlerChain).
  const run = chain(
    [
      authentication(deps.auth),
      impersonation(deps.authorize),
      maxInFlight(deps.inFlightLimits ?? defaultInFlightLimits),
      authorization(deps.authorize),
      faults(deps.before),
    ],
    serve,
  );

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let info: ReturnType<typeof requestInfo>;
    try {
      info = requestInfo(req);
    } catch {
      // A request target the URL parser refuses (`GET http://[`): Go's net/http answers it
      // before any handler, and it must never reach one (it would throw out of the server).
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
      res.end("400 Bad Request");
      return;
    }
    const ctx: RequestContext = { req, res, info, warnings: [] };
    const end = deps.metrics?.begin(ctx.info, req.headers["content-type"]);
    try {
      await run(ctx);
    } catch (err) {
      if (!res.headersSent)
        sendError(res, err, ctx.warnings, req.headers.accept, registry.kube.catalog);
      else res.end();
    }
    // Answers are written by now; a watch counts when its stream is set up.
    end?.(res.statusCode);
  };

  async function serve(ctx: RequestContext): Promise<void> {
    const { req, res, info: ri, warnings } = ctx;
    const { path, query } = ri;
    const user = ctx.user!;
    if (serveHealth(path, query, res)) return;
    // go-restful's /version web service routes its root with and without the trailing slash
    // (staging/src/k8s.io/apiserver/pkg/endpoints/routes/version.go).
    if (path === "/version" || path === "/version/") {
      sendJson(res, 200, versionInfo(registry.kube));
      return;
    }
    if (path === "/metrics" && deps.metrics) {
      const text = deps.metrics.text();
      res.writeHead(200, {
        "Content-Type": deps.metrics.contentType,
        "Content-Length": Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    const rp = ri.resource;
    if (!rp) {
      handleNonResource(registry, deps.serverAddress(), req, res, path);
      return;
    }
    const method = ri.method;
    const verb = ri.verb;
    const found = registry.lookup(rp.group, rp.version, rp.resource);
    if (!found) throw errors.notFoundPath();
    const { info, version: v } = found;
    if (!verb) throw errors.methodNotAllowed(method, info);
    // Built-ins serve the verbs discovery lists for them (no watch on componentstatuses, no
    // deletecollection on namespaces); subresources are checked below.
    if (rp.subresource === undefined && info.verbs && !info.verbs.includes(verb))
      throw errors.methodNotAllowed(method, info);
    if (rp.namespace !== undefined && !info.namespaced) throw errors.notFoundPath();
    if (rp.namespace === undefined && info.namespaced && rp.name !== undefined)
      throw errors.notFoundPath();
    const sub = rp.subresource;
    if (sub !== undefined) {
      const served = subresourcesOf(info, v).find((s) => s.name === sub);
      if (!served) throw errors.notFoundPath();
      if (!served.verbs.includes(verb)) throw errors.methodNotAllowed(method, info);
    }
    // The subresource's own handler, where it has one (status and scale are generic).
    const handler = sub !== undefined ? info.subresources?.[sub] : undefined;

    if (info.virtual) {
      if (verb !== "create") throw errors.methodNotAllowed(method, info);
      const body = await decodeBody(req, info);
      const out = info.virtual(
        { info, ...(rp.namespace !== undefined ? { namespace: rp.namespace } : {}), user },
        body,
      );
      sendJson(res, out.code, out.body);
      return;
    }
    const fieldManager = query.get("fieldManager");
    validateWriteOptions(verb, query);
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
      // respond() only serializes what a write returns.
      readOnlyResult: true,
    };
    // Streamed, not negotiated: kube answers a log with text/plain whatever the client accepts.
    if (handler?.connect) {
      await handler.connect(scope, req, res);
      return;
    }
    if (v.deprecated) {
      warnings.push(
        v.deprecationWarning ??
          `${info.group}/${v.name} ${info.kind} is deprecated; use ${info.group}/${info.versions.find((x) => x.storage)?.name ?? info.versions[0]!.name} ${info.kind}`,
      );
    }
    const tableOpts = wantsTable(req.headers.accept, query);
    // kube negotiates the answer's type before doing anything: a 406 changes nothing.
    const output = negotiateOutput(req.headers.accept, { protobuf: !info.custom });
    if (!output) throw errors.notAcceptable([...SERVED_TYPES]);

    switch (verb) {
      case "get": {
        const obj = sub === "scale" ? await rest.getScaleAsync(scope) : await rest.getAsync(scope);
        respond(res, 200, obj, scope, tableOpts, warnings, req.headers.accept);
        return;
      }
      case "list": {
        const list = await rest.listAsync(scope);
        respond(res, 200, list, scope, tableOpts, warnings, req.headers.accept);
        return;
      }
      case "watch": {
        // YAML has no streaming form (kube's NegotiateOutputMediaTypeStream).
        if (output === YAML_TYPE) throw errors.notAcceptable([...STREAM_TYPES]);
        // The deprecated /watch/<…>/<name> form watches one object.
        if (rp.name !== undefined) {
          const fs = query.get("fieldSelector");
          query.set("fieldSelector", `metadata.name=${rp.name}${fs ? `,${fs}` : ""}`);
        }
        checkWatchOptions(scope);
        const render = tableOpts
          ? (o: KubeObject, first: boolean) =>
              tableFor(scope, o, { ...tableOpts, noHeaders: !first })
          : wantsPartialMetadata(req.headers.accept)
            ? partialObjectMetadata
            : (o: KubeObject) => goEncoded(info, v, o);
        serveWatch(deps.store, rest, deps.watches, res, scope, {
          render,
          // Tables have no protobuf message: their rows are streamed as JSON.
          protobuf: output === PROTOBUF && !tableOpts,
        });
        return;
      }
      case "create": {
        const body = await decodeBody(req, info);
        Object.assign(scope, bodyFacts(body));
        if (sub !== undefined && !handler?.create) throw errors.notFoundPath();
        const r =
          sub !== undefined
            ? await handler!.create!(scope, await admitSubresource(scope, body))
            : await rest.createAsync(scope, body);
        respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
        return;
      }
      case "update": {
        const body = await decodeBody(req, info);
        Object.assign(scope, bodyFacts(body));
        const r =
          sub === "scale"
            ? await retryConcurrent(() => rest.updateScaleAsync(scope, body))
            : handler?.update
              ? await handler.update(scope, body)
              : await retryConcurrent(() => rest.updateAsync(scope, body));
        respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
        return;
      }
      case "patch": {
        const raw = await readBody(req);
        const r = await retryConcurrent(() => patch(rest, deps.apply, req, raw, scope));
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
          verb === "delete"
            ? await retryConcurrent(() => rest.deleteAsync(scope, opts))
            : await rest.deleteCollectionAsync(scope, opts);
        respond(res, r.code, r.body, scope, tableOpts, warnings, req.headers.accept);
        return;
      }
    }
  }

  /** Webhooks see a subresource's own kind (policy/v1 Eviction, v1 Binding, TokenRequest). */
  function admitSubresource(scope: RequestScope, body: KubeObject): Promise<KubeObject> {
    const d = subresourcesOf(scope.info, scope.version).find((s) => s.name === scope.subresource);
    const kind = {
      group: d?.group ?? scope.info.group,
      version: d?.version ?? scope.version.name,
      kind: d?.kind ?? scope.info.kind,
    };
    return rest.admitSubresourceCreate(scope, body, kind);
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
    // A custom resource's Scale keeps its JSON; a workload's prints kube's scale table.
    if (
      tableOpts &&
      body.kind !== "Status" &&
      (scope.subresource !== "scale" || !scope.info.custom)
    ) {
      // 1.32 has no Table message: kube's protobuf encoder refuses the Table (errNotMarshalable).
      if (negotiateOutput(accept, { protobuf: true }) === PROTOBUF)
        throw new ApiError(
          406,
          "NotAcceptable",
          "object *v1.Table does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message",
        );
      sendJson(res, code, tableFor(scope, body, tableOpts), warningHeader(warnings));
      return;
    }
    if (wantsPartialMetadata(accept) && scope.subresource !== "scale") {
      const partial = toPartialMetadata(body);
      // The metadata client's protobuf clause (`…protobuf;as=PartialObjectMetadataList;…`) is
      // served for every resource, custom ones included: its messages are meta.k8s.io's.
      const encoded =
        negotiateOutput(accept, { protobuf: true }) === PROTOBUF
          ? encodeProtobuf(scope.info.kube.catalog, partial)
          : undefined;
      if (encoded) sendProtobuf(res, code, encoded, warningHeader(warnings));
      else sendJson(res, code, partial, warningHeader(warnings));
      return;
    }
    const type = negotiateOutput(accept, { protobuf: !scope.info.custom }) ?? JSON_TYPE;
    if (type === PROTOBUF) {
      const encoded = encodeProtobuf(scope.info.kube.catalog, body);
      if (!encoded) throw errors.notAcceptable([...SERVED_TYPES]);
      sendProtobuf(res, code, encoded, warningHeader(warnings));
      return;
    }
    const served = scope.subresource === undefined || scope.subresource === "status";
    sendJson(
      res,
      code,
      served ? goEncoded(scope.info, scope.version, body) : body,
      warningHeader(warnings),
      type,
    );
  }
}

export type { Attributes, Verb };
