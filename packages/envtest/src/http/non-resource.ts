/**
 * The non-resource endpoints: discovery (legacy and aggregated v2, chosen by the Accept header
 * as client-go does) and the OpenAPI v2 and v3 documents. `/version` and the health
 * endpoints are answered before authentication by the handler.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "@opgen/apimachinery/status";
import type { KubeVersion } from "@opgen/apimachinery/version";
import type { Registry } from "../api/registry.js";
import type { JsonObject } from "../api/types.js";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from "./discovery.js";
import { openApiV2Json, openApiV2Protobuf, openApiV3 } from "./openapi/documents.js";
import { PROTOBUF_V2 } from "./openapi/gnostic.js";
import { openApiRoot } from "./openapi/v3.js";
import { sendJson } from "./wire.js";

/**
 * What kube-apiserver reports at /version, for the server's minor (kubectl's dispatcher picks its
 * binary by minor); the build facts are envtest's own.
 */
export function versionInfo(kube: KubeVersion): JsonObject {
  return {
    major: kube.info.major,
    minor: kube.info.minor,
    gitVersion: `${kube.info.gitVersion}-opgen`,
    ...BUILD,
  };
}

const BUILD = {
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-01-01T00:00:00Z",
  goVersion: "go1.23.0",
  compiler: "gc",
  platform: "linux/amd64",
};

export function handleNonResource(
  registry: Registry,
  serverAddress: string,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): void {
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
    else sendJson(res, 200, apiVersions(serverAddress));
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
      ? openApiV3(registry, "", segs[3]!)
      : segs.length >= 5
        ? openApiV3(registry, segs[3]!, segs[4]!)
        : undefined;
    if (doc) {
      sendJson(res, 200, doc);
      return;
    }
  }
  if (path === "/openapi/v2" || path === "/openapi/v2/") {
    // kubectl asks for protobuf only; browsers and other clients get JSON.
    const protobuf = /application\/com\.github\.proto-openapi\.spec\.v2[@.]v1\.0\+protobuf/.test(
      accept,
    );
    const doc = protobuf ? openApiV2Protobuf(registry) : openApiV2Json(registry);
    const headers = {
      ETag: doc.etag,
      Vary: "Accept",
      "Cache-Control": "no-cache, private",
      "Content-Type": protobuf ? PROTOBUF_V2 : "application/json",
    };
    if (req.headers["if-none-match"] === doc.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, "Content-Length": doc.body.length });
    res.end(doc.body);
    return;
  }
  throw errors.notFoundPath();
}
