/**
 * One Kubernetes minor's built-in API, as the catalog data of that minor describes it: its
 * resources, definitions, descriptions, protobuf schemas and release facts. A catalog is made
 * once per minor and shared (it is read-only data, each file read on first use); nothing here
 * assumes a minor: callers name one, or take the profile's (`@opgen/apimachinery/version`).
 */
import type { JSONSchemaProps } from "../schema/types.js";
import { type CatalogData, catalogData, catalogVersions } from "./data.js";
import { readDefinition, readDescription, type TypeDefinition } from "./definitions.js";
import { type ExpandOptions, expandDefinition } from "./expand.js";
import { definitionOfModel, definitionPackages } from "./models.js";
import { type ProtobufDescriptor, readProtobufSchemas } from "./protobuf.js";
import { type ResourceDescriptor, ResourceIndex, type ResourceQuery } from "./resources.js";

/** A feature gate's default at a minor, as kube's versioned spec gives it. */
export interface FeatureGateSpec {
  readonly default: boolean;
  readonly preRelease: "Alpha" | "Beta" | "GA" | "Deprecated";
  /** The gate may not be set to anything but its default (a GA or deprecated gate). */
  readonly lockToDefault?: boolean;
}

/** What a minor's kube-apiserver reports about itself (`release.json`). */
export interface ReleaseFacts {
  /** `/version`'s major, e.g. "1". */
  readonly major: string;
  /** `/version`'s minor, e.g. the "36" of 1.36. */
  readonly minor: string;
  /** The release's version, e.g. `v1.36.0`. */
  readonly gitVersion: string;
  /** The feature gates envtest implements that exist at this minor, with their defaults. */
  readonly featureGates: Readonly<Record<string, FeatureGateSpec>>;
}

export class Catalog {
  readonly #data: CatalogData;
  #resources: ResourceIndex | undefined;

  constructor(data: CatalogData) {
    this.#data = data;
  }

  /** The minor, e.g. "1.36". */
  get minor(): string {
    return this.#data.minor;
  }

  /** The minor's release facts (version and feature gates). */
  release(): ReleaseFacts {
    const facts = this.#data.read<ReleaseFacts>("release.json");
    if (!facts)
      throw new Error(
        `@opgen/apimachinery: data/${this.minor}/release.json is missing; run npm run catalog`,
      );
    return facts;
  }

  /** Every built-in resource of every group version of the minor, preferred versions first. */
  builtinResources(): readonly ResourceDescriptor[] {
    return this.#index().all;
  }

  /** A built-in resource by kind or plural (see ResourceIndex.find). */
  findResource(q: ResourceQuery): ResourceDescriptor | undefined {
    return this.#index().find(q);
  }

  /** The preferred version of a built-in group (`""` for core), or undefined when unknown. */
  preferredVersion(group: string): string | undefined {
    return this.builtinResources().find((r) => r.group === group && r.preferred)?.version;
  }

  /** The definition of that name (`io.k8s.api.core.v1.PodSpec`), or undefined. */
  definition(name: string): TypeDefinition | undefined {
    return readDefinition(this.#data, name);
  }

  /** The definition name of a built-in kind, e.g. apps/v1 Deployment → `io.k8s.api.apps.v1.Deployment`. */
  definitionName(gvk: { group: string; version: string; kind: string }): string | undefined {
    return this.findResource(gvk)?.definition;
  }

  /** The description of a definition (no property) or of one of its properties. */
  description(name: string, property?: string): string | undefined {
    return readDescription(this.#data, name, property);
  }

  /** The definition packages, e.g. `io.k8s.api.core.v1`. */
  definitionPackages(): readonly string[] {
    return definitionPackages(this.#data);
  }

  /** The definition a `@kubernetes/client-node` model stands for (`V1Container`), or undefined. */
  definitionOfModel(model: string): string | undefined {
    return definitionOfModel(this.#data, model);
  }

  /** The inline structural schema of a definition; throws for a name the catalog lacks. */
  expandSchema(name: string, opts?: ExpandOptions): JSONSchemaProps {
    return expandDefinition(this, name, opts);
  }

  /** The protobuf schemas as a protobufjs JSON descriptor (read on first use). */
  protobufSchemas(): ProtobufDescriptor {
    return readProtobufSchemas(this.#data);
  }

  #index(): ResourceIndex {
    this.#resources ??= new ResourceIndex(this.#data);
    return this.#resources;
  }
}

const catalogs = new Map<string, Catalog>();

/** The minors the catalog has data for, oldest first. */
export function catalogMinors(): readonly string[] {
  return catalogVersions().minors;
}

/** The catalog of a minor ("1.36"); throws naming the known minors for any other. */
export function catalogFor(minor: string): Catalog {
  let catalog = catalogs.get(minor);
  if (catalog) return catalog;
  const known = catalogMinors();
  if (!known.includes(minor))
    throw new Error(
      `Kubernetes ${minor} is not a version opgen knows; use one of ${known.join(", ")}`,
    );
  catalog = new Catalog(catalogData(minor));
  catalogs.set(minor, catalog);
  return catalog;
}
