import type { ObjectMeta } from "@opgen/runtime";

export interface KeyValue {
  key: string;
  value: string;
}

export type LiteralString = string;

export interface ImmutableTypeSpec {
  mutableString: string;
  /** @immutable */
  requiredString: string;
  /** @immutable */
  optionalString?: string;
  /** @immutable */
  optionalLiteralString?: LiteralString;
  /** @immutable */
  requiredStruct: KeyValue;
  /** @immutable */
  optionalStruct?: KeyValue;
  /** @immutable */
  optionalOmitZeroStruct?: KeyValue;
  /** @immutable */
  requiredSlice: string[];
  /** @immutable */
  optionalSlice?: string[];
  /** @immutable */
  requiredMap: Record<string, string>;
  /** @immutable */
  optionalMap?: Record<string, string>;
}

/** @resource */
export interface ImmutableType {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ImmutableTypeSpec;
}
