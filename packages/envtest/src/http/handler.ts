/**
 * The HTTP front of the API server: authentication, authorization and fault hooks, routing of
 * resource paths to the REST verbs (scope checks, subresources, 404/405), and the response
 * format each verb gets (object, List, Table, watch stream). Bodies, patches, watches and the
 * non-resource endpoints have their own modules.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "@opgen/apimachinery/status";
import type { Registry } from "../api/registry.js";
import { subresourcesOf } from "../api/subresources.js";
import type { TokenAuthenticator } from "../auth/tokens.js";
import type { RequestScope } from "../rest/scope.js";
import { validateWriteOptions } from "../rest/write-options.js";
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
import { serveHealth } from "./health.js";
import type { ApiServerMetrics } from "./metrics.js";
import { negotiateOutput, SERVED_TYPES } from "./negotiation.js";
import { handleNonResource, versionInfo } from "./non-resource.js";
import type { Verb } from "./request.js";
import { serveVerb, type VerbDeps } from "./resource-verbs.js";
import { wantsTable } from "./table.js";
import { decodeBody, sendError, sendJson } from "./wire.js";

export interface HandlerDeps extends VerbDeps {
  registry: Registry;
  auth: TokenAuthenticator;
  serverAddress: () => string;
  /** Returns a reason string to deny, undefined to allow. */
  authorize?: (attrs: Attributes) => string | undefined;
  /** Runs before routing: fault injection (throw an ApiError, or delay). */
  before?: (attrs: Attributes) => Promise<void>;
  /** The max-in-flight limits (kube-apiserver's defaults when unset). */
  inFlightLimits?: InFlightLimits;
  /** Request metrics served at /metrics. */
  metrics?: ApiServerMetrics;
}

export function createHandler(deps: HandlerDeps) {
  // kube-apiserver's handler chain, outermost first (`server/config.go` DefaultBuildHandlerChain).
  const run = chain(
    [
      authentication(deps.auth),
      impersonation(deps.authorize),
      maxInFlight(deps.inFlightLimits ?? defaultInFlightLimits),
      authorization(deps.authorize),
      faults(deps.before),
    ],
    (ctx) => serve(deps, ctx),
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
        sendError(res, err, ctx.warnings, req.headers.accept, deps.registry.kube.catalog);
      else res.end();
    }
    // Answers are written by now; a watch counts when its stream is set up.
    end?.(res.statusCode);
  };
}

async function serve(deps: HandlerDeps, ctx: RequestContext): Promise<void> {
  const { registry } = deps;
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

  await serveVerb(deps, ctx, { verb, scope, handler, output, tableOpts });
}

export type { Attributes, Verb };
