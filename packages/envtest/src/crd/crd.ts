/**
 * CustomResourceDefinitions as envtest stores and reads them. Their defaults and validation are
 * @opgen/apimachinery/apiextensions' (the one CRD validator, shared with `opgen manifests`);
 * what an accepted CRD serves is registry/custom/'s.
 */
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
} from "@opgen/apimachinery/apiextensions";
import type { KubeObject } from "../api/types.js";

/** The CRD shape is apimachinery's (one home); envtest reads it as one of its stored objects. */
export type CrdNames = CustomResourceDefinitionNames;
export type CrdVersion = CustomResourceDefinitionVersion;
export interface Crd
  extends KubeObject,
    Omit<CustomResourceDefinition, "apiVersion" | "kind" | "metadata"> {}
