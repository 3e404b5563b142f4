import type { V1JobTemplateSpec, V1ObjectReference } from "@kubernetes/client-node";
import type { IntOrString, int32, int64, MicroTime, ObjectMeta, Time } from "@opgen/runtime";

// The TypeScript counterpart of controller-gen's testdata/cronjob_types.go (its v1 CronJob),
// field for field, with markers translated and descriptions in our own words. The golden test
// compares the schemas without descriptions.

/**
 * Bytes are base64 in JSON, as Go's []byte.
 * @validation Format=byte
 */
export type Bytes = string;

/**
 * A host name.
 * @validation MinLength=1
 * @validation MaxLength=255
 */
export type HostName = string;

/**
 * Hosts, at least one, no duplicates.
 * @validation MinItems=1
 * @validation items:MinLength=1
 * @validation items:MaxLength=255
 * @validation items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
 * @listType set
 */
export type Hosts = string[];

/** @validation MinLength=4 */
export type LongerString = string;

/** @validation MinLength=4 */
export type TwoOfAKind = string;

/**
 * @validation MinLength=1
 * @validation MaxLength=255
 */
export type StringAliasValidated = string;

/** @title title on type */
export type StringWithTitle = string;

/** @validation XValidation rule="self.size() % 2 == 0" message="must have even length" */
export type StringEvenType = string;

/** @validation XPreserveUnknownFields */
export type Unpruned = object;

/**
 * A local declaration with its own validation.
 * @validation MinLength=4
 */
export type LocalString = string;

/** @structType atomic */
export interface NestedObject {
  foo: string;
  bar: boolean;
}

export interface PlainObject {
  foo: string;
  bar: boolean;
}

export interface DefaultedNested {
  nested: PlainObject;
}

export interface DefaultedEmpty {
  bar?: string;
  /** @default forty-two */
  foo?: string;
}

export interface AssociativeType {
  name: string;
  /** @validation Type=integer */
  secondary: number;
  foo: string;
}

/**
 * @listType map
 * @listMapKey name
 * @listMapKey secondary
 */
export type AssociativeList = AssociativeType[];

/**
 * @validation MinProperties=1
 * @validation MaxProperties=2
 */
export interface MinMaxObject {
  foo?: string;
  bar?: string;
  baz?: string;
}

export interface InnerMapHolder {
  innerMap?: Record<string, string>;
}

/** Fields of an embedded struct, inlined as Go inlines them. */
export interface EmbeddedFields {
  foo: string;
  baz: string;
  fromEmbedded?: string;
  fromPointer?: string;
}

/**
 * CronJobSpec is the desired state.
 * @validation XValidation rule="has(oldSelf.forbiddenInt) || !has(self.forbiddenInt)" message="forbiddenInt is not allowed" fieldPath=".forbiddenInt" reason=FieldValueForbidden
 */
export interface CronJobSpec extends EmbeddedFields {
  /** When to run, as a cron expression. */
  schedule: string;
  /** How late, in seconds, a missed run may still start. */
  startingDeadlineSeconds?: int64;
  /** What to do when a run is due while the previous one still runs. */
  concurrencyPolicy?: "Allow" | "Forbid" | "Replace";
  /** The same, as a k8s enum type. */
  k8sConcurrencyPolicy?: "Allow" | "Forbid" | "Replace";
  /** Stops future runs. */
  suspend?: boolean;
  /** A string that is not a bool. */
  noReallySuspend?: string;
  /** A binary value. */
  binaryName: Bytes;
  /** May be null. */
  canBeNull: string | null;
  /** The Job each run creates. */
  jobTemplate: V1JobTemplateSpec;
  /** How many succeeded jobs to keep. */
  successfulJobsHistoryLimit?: int32;
  /** How many failed jobs to keep. */
  failedJobsHistoryLimit?: int32;
  /** @validation MinLength=4 */
  twoOfAKindPart0: string;
  twoOfAKindPart1: TwoOfAKind;
  /**
   * @default forty-two
   * @example forty-two
   * @title DefaultedString
   */
  defaultedString: string;
  /**
   * @default [a, b]
   * @example [a, b]
   * @title DefaultedSlice
   */
  defaultedSlice: string[];
  /**
   * @default [{nested: {foo: baz, bar: true}}, {nested: {foo: qux, bar: false}}]
   * @example [{nested: {foo: baz, bar: true}}, {nested: {foo: qux, bar: false}}]
   * @title 124
   */
  defaultedObject: DefaultedNested[];
  /**
   * @default {}
   * @title {}
   */
  defaultedEmptySlice: string[];
  /** @default {} */
  defaultedEmptyMap: Record<string, string>;
  /** @default {} */
  defaultedEmptyObject: DefaultedEmpty;
  /** @default kubebuilder-default */
  doubleDefaultedString: string;
  /** @default forty-two */
  kubernetesDefaultedString: string;
  /** @default [a, b] */
  kubernetesDefaultedSlice: string[];
  /** @default [{nested: {foo: baz, bar: true}}, {nested: {foo: qux, bar: false}}] */
  kubernetesDefaultedObject: DefaultedNested[];
  /** @default [] */
  kubernetesDefaultedEmptySlice: string[];
  /** @default {} */
  kubernetesDefaultedEmptyMap: Record<string, string>;
  /** @default {} */
  kubernetesDefaultedEmptyObject: DefaultedEmpty;
  /** No default: controller-gen skips `+default=ref(...)`. */
  kubernetesDefaultedRef?: string;
  /** @validation Pattern=`^$|^((https):\/\/?)[^\s()<>]+(?:\([\w\d]+\)|([^[:punct:]\s]|\/?))$` */
  patternObject: string;
  /**
   * @validation XEmbeddedResource
   * @validation XPreserveUnknownFields
   */
  embeddedResource: object;
  /**
   * @validation XEmbeddedResource
   * @validation XPreserveUnknownFields
   */
  unprunedEmbeddedResource: object;
  /** @validation XPreserveUnknownFields */
  unprunedJSON: PlainObject;
  unprunedFomType: Unpruned;
  /** @validation XPreserveUnknownFields */
  unprunedFomTypeAndField: Unpruned;
  /**
   * @listType map
   * @listMapKey name
   * @listMapKey secondary
   */
  associativeList: AssociativeType[];
  nestedassociativeList: AssociativeList;
  /**
   * @listType map
   * @listMapKey name
   */
  k8sAssociativeList: AssociativeType[];
  k8sNestedAssociativeList: AssociativeList;
  /** @listType set */
  k8sSetList?: string[];
  /** @listType atomic */
  k8sAtomicList?: string[];
  /** @mapType granular */
  mapOfInfo: Record<string, Bytes>;
  /** @mapType granular */
  nestedMapOfInfo: Record<string, Bytes>;
  /** @structType atomic */
  structWithSeveralFields: PlainObject;
  nestedStructWithSeveralFields: NestedObject;
  /** @structType atomic */
  nestedStructWithSeveralFieldsDoubleMarked: NestedObject;
  justNestedObject?: PlainObject;
  /** @optional */
  explicitlyOptionalKubebuilder: string;
  /** @optional */
  explicitlyOptionalKubernetes: string;
  /** @optional */
  explicitlyOptionalK8s: string;
  /** @required */
  explicitlyRequiredKubebuilder?: string;
  /** @required */
  explicitlyRequiredKubernetes?: string;
  /** @required */
  explicitlyRequiredK8s?: string;
  minMaxProperties?: MinMaxObject;
  /**
   * @validation Schemaless
   * @validation Type=string
   */
  schemaless?: Bytes;
  /**
   * @validation XIntOrString
   * @validation MaxLength=11
   * @validation MinLength=2
   * @validation Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"
   */
  intOrStringWithAPattern?: IntOrString;
  /**
   * @validation items:XIntOrString
   * @validation items:MaxLength=10
   * @validation items:MinLength=1
   * @validation items:Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"
   */
  intOrStringArrayWithAPattern?: IntOrString[];
  /**
   * @validation XIntOrString
   * @validation Enum=1;2;"foo";"bar"
   */
  intOrStringWithEnum?: IntOrString;
  /**
   * @validation items:XIntOrString
   * @validation items:Enum=1;2;"foo";"bar"
   * @validation items:MaxLength=3
   * @validation items:MinLength=1
   */
  intOrStringWithEnumSlice?: IntOrString[];
  nestedMap?: Record<string, Record<string, string>>;
  nestedNestedMap?: Record<string, Record<string, Record<string, string>>>;
  nestedMapInStruct?: Record<string, InnerMapHolder>;
  mapOfArraysOfFloats?: Record<string, boolean[]>;
  mapOfTextMarshalerKeys?: Record<string, string>;
  byteSliceData?: Record<string, Bytes>;
  stringSliceData?: Record<string, string[]>;
  ptrData?: Record<string, string>;
  /**
   * @validation Minimum=-0.5
   * @validation Maximum=1.5
   * @validation MultipleOf=0.5
   */
  floatWithValidations: number;
  /**
   * @validation Minimum=-0.5
   * @validation Maximum=1.5
   * @validation MultipleOf=0.5
   */
  float64WithValidations: number;
  /**
   * @validation Type=integer
   * @validation Minimum=-2
   * @validation Maximum=2
   * @validation MultipleOf=2
   */
  intWithValidations: number;
  /**
   * @validation Minimum=-2
   * @validation Maximum=2
   * @validation MultipleOf=2
   */
  int32WithValidations: int32;
  /** @validation Type=integer */
  forbiddenInt?: number;
  /** @validation items:Type=integer */
  array?: number[];
  arrayUsingCompositeLiteral?: string[];
  /**
   * @validation MinItems=2
   * @validation MaxItems=2
   */
  stringPair: string[];
  /**
   * @validation items:Type=integer
   * @validation items:Enum=0;1;3
   */
  enumSlice?: number[];
  /**
   * @listType set
   * @validation MinItems=1
   * @validation items:MinLength=1
   * @validation items:MaxLength=255
   * @validation items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
   */
  hosts?: string[];
  hostsAlias?: Hosts;
  /** @validation MinItems=3 */
  longerStringArray?: LongerString[];
  aliasFromPackage?: string;
  stringAlias?: string;
  stringAliasPtr?: string;
  /**
   * @validation MinLength=1
   * @validation MaxLength=255
   */
  stringAliasAddedValidation?: string;
  stringAliasAlreadyValidated?: StringAliasValidated;
  stringAliasWithTitle?: StringWithTitle;
  /** @title title on field */
  stringAliasWithAddedTitle?: StringWithTitle;
  /**
   * @validation MinLength=10
   * @validation MaxLength=10
   */
  fieldLevelAliasOverride?: StringAliasValidated;
  /**
   * @validation MinLength=10
   * @validation MaxLength=10
   */
  fieldLevelLocalDeclarationOverride?: LocalString;
  /**
   * @validation Minimum=1
   * @validation Maximum=10
   */
  locallyBoundedInteger?: int32;
  /**
   * @validation MinLength=1
   * @validation MaxLength=10
   */
  locallyBoundedString?: string;
  /**
   * @validation XValidation rule="self.size() % 2 == 0" message="must have even length"
   * @validation XValidation rule="true"
   */
  stringWithEvenLength?: string;
  /** @validation XValidation rule="self.startsWith('good-')" message="must have good prefix" */
  stringWithEvenLengthAndGoodPrefix?: StringEvenType;
  /** @validation XValidation rule="self.size() % 2 == 0" messageExpression="self + ' has odd length, must be even'" */
  stringWithEvenLengthAndMessageExpression?: string;
  /** @validation XValidation rule="oldSelf.hasValue() || self == 0" message="must be set to 0 on creation. can be set to any value on an update." optionalOldSelf=true */
  onlyAllowSettingOnUpdate?: int32;
  /** @default TCP */
  protocol?: string;
  selectableFieldString?: string;
}

/** A duration as an object, as the Go fixture marshals it. */
export interface DurationObject {
  value: int64;
}

/** CronJobStatus is the observed state. */
export interface CronJobStatus {
  /** The jobs running now. */
  active?: V1ObjectReference[];
  /** When a job was last scheduled. */
  lastScheduleTime?: Time;
  lastScheduleTime2?: int64;
  lastScheduleMicroTime?: MicroTime;
  lastActiveLogURL?: string;
  lastActiveLogURL2?: string;
  lastActiveLogURL3?: string;
  lastActiveLogURL4?: string;
  duration?: DurationObject;
}

/**
 * CronJob is the Schema for the cronjobs API
 * @resource singular=mycronjob
 * @subresource status
 * @storageversion
 * @metadata annotations="api-approved.kubernetes.io=https://github.com/kubernetes-sigs/controller-tools";"cert-manager.io/inject-ca-from-secret=cert-manager/cert-manager-webhook-ca"
 * @selectablefield jsonPath=.spec.selectableFieldString
 */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}
