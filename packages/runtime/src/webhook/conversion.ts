/**
 * CRD conversion (controller-runtime's pkg/webhook/conversion with the hub/spoke model): one
 * version of a kind is the hub (normally the storage version) and every other version, a spoke,
 * converts to and from it, so N versions need 2(N-1) functions instead of N(N-1). A request for
 * spoke → spoke goes through a fresh hub. `/convert` answers a ConversionReview v1: every object
 * converted with apiVersion and kind set, or, when any one fails, `result: Failure` with that
 * object's error and no objects at all (the API server fails the whole read or write), with the
 * error texts of controller-runtime's hub/spoke converter.
 */
import type http from "node:http";
import { parseApiVersion } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import type { Logger } from "../log/logger.js";
import { BadRequest, closeAfter, decodeReview, isObject, readBody, writeJson } from "./http.js";

/** How one spoke version converts to and from the hub version. */
export interface SpokeConversion<Spoke, Hub> {
  toHub(src: Spoke): Hub;
  fromHub(hub: Hub): Spoke;
}

/** A kind's hub version and its spokes. */
export interface HubSpoke {
  group: string;
  kind: string;
  hub: string;
  // biome-ignore lint/suspicious/noExplicitAny: each spoke has its own object type
  spokes: ReadonlyMap<string, SpokeConversion<any, any>>;
}

/**
 * Conversion reviews can carry a whole list (the API server converts a list response in one
 * call), so they get more room than an admission review.
 */
export const maxConversionBytes = 64 * 1024 * 1024;

const conversionVersions = ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"];

/** The kinds this operator converts, by group and kind (controller-runtime's converter registry). */
export class ConversionRegistry {
  private readonly byGroupKind = new Map<string, HubSpoke>();

  register(def: HubSpoke): void {
    const key = `${def.kind}.${def.group}`;
    if (this.byGroupKind.has(key)) throw new Error(`a conversion for ${key} is already registered`);
    this.byGroupKind.set(key, def);
  }

  get(group: string, kind: string): HubSpoke | undefined {
    return this.byGroupKind.get(`${kind}.${group}`);
  }

  get size(): number {
    return this.byGroupKind.size;
  }
}

function gvk(group: string, version: string, kind: string): string {
  return `${group}/${version}, Kind=${kind}`;
}

function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Sets apiVersion and kind (first, as Go writes them) and keeps the source's metadata if dropped. */
function typed(obj: unknown, apiVersion: string, kind: string, src: KubeObject): KubeObject {
  if (!isObject(obj)) throw new Error(`the conversion to ${apiVersion} did not return an object`);
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  const out: KubeObject = { apiVersion, kind, ...rest };
  if (out.metadata === undefined && src.metadata !== undefined)
    out.metadata = structuredClone(src.metadata);
  return out;
}

/** Converts one object to `desiredAPIVersion`; throws with controller-runtime's messages. */
export async function convertObject(
  registry: ConversionRegistry,
  obj: unknown,
  desiredAPIVersion: string,
): Promise<KubeObject> {
  if (!isObject(obj)) throw new Error("cannot decode the object: it is not a JSON object");
  const src = obj as KubeObject;
  if (typeof src.apiVersion !== "string" || !src.apiVersion) {
    throw new Error("Object 'apiVersion' is missing in the object");
  }
  if (typeof src.kind !== "string" || !src.kind) {
    throw new Error("Object 'Kind' is missing in the object");
  }
  const kind = src.kind;
  const from = parseApiVersion(src.apiVersion);
  const to = parseApiVersion(desiredAPIVersion);
  const srcGVK = gvk(from.group, from.version, kind);
  const dstGVK = gvk(to.group, to.version, kind);
  // Checked in controller-runtime's order: the source decodes, the destination type exists, then
  // same group, then different versions.
  const known = (group: string, version: string) => {
    const d = registry.get(group, kind);
    return d !== undefined && (version === d.hub || d.spokes.has(version));
  };
  if (!known(from.group, from.version)) {
    throw new Error(`no kind "${kind}" is registered for version "${src.apiVersion}"`);
  }
  if (!known(to.group, to.version)) {
    throw new Error(`no kind "${kind}" is registered for version "${desiredAPIVersion}"`);
  }
  if (from.group !== to.group) {
    throw new Error(`src ${srcGVK} and dst ${dstGVK} does not belong to same API Group`);
  }
  if (from.version === to.version) {
    throw new Error(`conversion is not allowed between same type ${srcGVK}`);
  }
  const def = registry.get(from.group, kind);
  const hs = def as HubSpoke;
  const hubApiVersion = apiVersionOf(hs.group, hs.hub);
  const input = structuredClone(src);
  if (from.version === hs.hub) {
    const spoke = hs.spokes.get(to.version)!;
    return typed(await spoke.fromHub(input), desiredAPIVersion, kind, src);
  }
  const srcSpoke = hs.spokes.get(from.version)!;
  if (to.version === hs.hub) {
    return typed(await srcSpoke.toHub(input), desiredAPIVersion, kind, src);
  }
  const hubGVK = gvk(hs.group, hs.hub, kind);
  let hub: KubeObject;
  try {
    hub = typed(await srcSpoke.toHub(input), hubApiVersion, kind, src);
  } catch (err) {
    throw new Error(
      `failed to convert spoke ${srcGVK} to hub ${hubGVK} : ${(err as Error).message}`,
    );
  }
  try {
    return typed(await hs.spokes.get(to.version)!.fromHub(hub), desiredAPIVersion, kind, src);
  } catch (err) {
    throw new Error(
      `failed to convert hub ${hubGVK} to spoke ${dstGVK} : ${(err as Error).message}`,
    );
  }
}

interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: unknown[];
}

function parseConversionReview(body: Buffer): { apiVersion: string; request: ConversionRequest } {
  const { apiVersion, request: req } = decodeReview(
    body,
    "ConversionReview",
    conversionVersions,
    "conversion request is nil",
  );
  if (req.uid !== undefined && typeof req.uid !== "string") {
    throw new BadRequest(400, "couldn't decode the ConversionReview: request.uid must be a string");
  }
  if (typeof req.desiredAPIVersion !== "string" || !req.desiredAPIVersion) {
    throw new BadRequest(
      400,
      "couldn't decode the ConversionReview: request.desiredAPIVersion must be set",
    );
  }
  if (req.objects !== undefined && req.objects !== null && !Array.isArray(req.objects)) {
    throw new BadRequest(
      400,
      "couldn't decode the ConversionReview: request.objects must be a list",
    );
  }
  return {
    apiVersion,
    request: {
      uid: (req.uid as string | undefined) ?? "",
      desiredAPIVersion: req.desiredAPIVersion,
      objects: (req.objects as unknown[] | null | undefined) ?? [],
    },
  };
}

/** Serves `/convert`. A review that does not decode gets HTTP 400 (controller-runtime: empty body). */
export function serveConversion(
  registry: ConversionRegistry,
  log: Logger,
): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  return async (httpReq, res) => {
    let parsed: ReturnType<typeof parseConversionReview>;
    try {
      parsed = parseConversionReview(await readBody(httpReq, maxConversionBytes));
    } catch (err) {
      if (!(err instanceof BadRequest)) throw err;
      log.info("refused a bad conversion request", { code: err.code, reason: err.message });
      if (err.code === 413) closeAfter(res);
      res
        .writeHead(err.code, {
          "Content-Type": "text/plain; charset=utf-8",
          "X-Content-Type-Options": "nosniff",
        })
        .end(`${err.message}\n`);
      return;
    }
    const { apiVersion, request } = parsed;
    const converted: KubeObject[] = [];
    let failure: string | undefined;
    for (const obj of request.objects) {
      try {
        converted.push(await convertObject(registry, obj, request.desiredAPIVersion));
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
        log.error("failed to convert", err, {
          uid: request.uid,
          desiredAPIVersion: request.desiredAPIVersion,
        });
        break;
      }
    }
    writeJson(res, 200, {
      kind: "ConversionReview",
      apiVersion,
      response: {
        uid: request.uid,
        convertedObjects: failure === undefined ? converted : null,
        result:
          failure === undefined
            ? { metadata: {}, status: "Success" }
            : { metadata: {}, status: "Failure", message: failure },
      },
    });
  };
}
