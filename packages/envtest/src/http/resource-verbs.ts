/**
 * The REST verbs as the HTTP handler serves them, once a request's resource, scope and output
 * type are settled (handler.ts): get, list, watch, create, update, patch, delete and
 * deletecollection, with the answer's format each gets (object, List, Table, partial metadata,
 * protobuf, watch stream).
 */
import type { ServerResponse } from "node:http";
import { ApiError, errors } from "@opgen/apimachinery/status";
import type { SubresourceHandler } from "../api/resource.js";
import { subresourcesOf } from "../api/subresources.js";
import type { KubeObject } from "../api/types.js";
import { deleteOptionsFrom } from "../rest/delete-options.js";
import type { ObjectRest } from "../rest/objects.js";
import type { RequestScope } from "../rest/scope.js";
import { checkWatchOptions } from "../rest/watch.js";
import { retryConcurrent } from "../rest/write-steps.js";
import type { Store } from "../store/store.js";
import type { RequestContext } from "./filters/context.js";
import { goEncoded } from "./go-encoding.js";
import {
  JSON_TYPE,
  negotiateOutput,
  PROTOBUF,
  SERVED_TYPES,
  STREAM_TYPES,
  YAML_TYPE,
} from "./negotiation.js";
import {
  partialObjectMetadata,
  toPartialMetadata,
  wantsPartialMetadata,
} from "./partial-metadata.js";
import { type ApplyFn, patch } from "./patch.js";
import { encodeProtobuf } from "./protobuf.js";
import type { Verb } from "./request.js";
import { type TableOptions, tableFor } from "./table.js";
import { serveWatch } from "./watch-stream.js";
import { bodyFacts, decodeBody, readBody, sendJson, sendProtobuf, warningHeader } from "./wire.js";

/** What the verbs need of the server. */
export interface VerbDeps {
  store: Store;
  rest: ObjectRest;
  /** Server-side apply (application/apply-patch+yaml). */
  apply?: ApplyFn;
  /** Tracks open watches so stop() and dropWatches() can end them. */
  watches: Set<{ close(): void }>;
}

/** A resource request the handler has resolved: its verb, scope and negotiated output. */
export interface VerbRequest {
  verb: Verb;
  scope: RequestScope;
  /** The subresource's own handler, where it has one (status and scale are generic). */
  handler: SubresourceHandler | undefined;
  output: string;
  tableOpts: TableOptions | undefined;
}

/** Runs the verb through the REST layer and writes its answer in the negotiated format. */
export async function serveVerb(
  deps: VerbDeps,
  ctx: RequestContext,
  request: VerbRequest,
): Promise<void> {
  const { rest } = deps;
  const { req, res, warnings } = ctx;
  const { verb, scope, handler, output, tableOpts } = request;
  const { info, query, subresource: sub } = scope;
  const name = scope.name;
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
      if (name !== undefined) {
        const fs = query.get("fieldSelector");
        query.set("fieldSelector", `metadata.name=${name}${fs ? `,${fs}` : ""}`);
      }
      checkWatchOptions(scope);
      const render = tableOpts
        ? (o: KubeObject, first: boolean) => tableFor(scope, o, { ...tableOpts, noHeaders: !first })
        : wantsPartialMetadata(req.headers.accept)
          ? partialObjectMetadata
          : (o: KubeObject) => goEncoded(info, scope.version, o);
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
          ? await handler!.create!(scope, await admitSubresource(rest, scope, body))
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
function admitSubresource(
  rest: ObjectRest,
  scope: RequestScope,
  body: KubeObject,
): Promise<KubeObject> {
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
