import type { Condition, int32, int64, ObjectMeta, Time } from "@opgen/runtime";

/** MyAppSpec defines the desired state of MyApp */
export interface MyAppSpec {
  /**
   * Replicas is the desired number of replicas
   * @validation Minimum=1
   * @validation Maximum=100
   * @default 1
   */
  replicas?: int32;

  /**
   * Image is the container image to use
   * @validation Pattern=`^[a-zA-Z0-9\-\./:]+$`
   */
  image: string;

  /**
   * Port is the container port to expose
   * @validation Minimum=1
   * @validation Maximum=65535
   * @default 8080
   */
  port?: int32;

  /** Resources defines the compute resources for the application */
  resources?: ResourceRequirements;

  /** Env defines environment variables for the application */
  env?: EnvVar[];

  /**
   * ServiceType defines the type of Service to create
   * @default ClusterIP
   */
  serviceType?: "ClusterIP" | "NodePort" | "LoadBalancer";

  /** AutoScaling defines the autoscaling configuration */
  autoScaling?: AutoScalingSpec;
}

/** ResourceRequirements defines the compute resources */
export interface ResourceRequirements {
  /** Limits describes the maximum amount of compute resources allowed */
  limits?: ResourceList;
  /** Requests describes the minimum amount of compute resources required */
  requests?: ResourceList;
}

/** ResourceList is a set of (resource name, quantity) pairs */
export interface ResourceList {
  /** CPU quantity (e.g., "100m", "1") */
  cpu?: string;
  /** Memory quantity (e.g., "128Mi", "1Gi") */
  memory?: string;
}

/** EnvVar represents an environment variable */
export interface EnvVar {
  /** Name of the environment variable */
  name: string;
  /** Value of the environment variable */
  value?: string;
  /** ValueFrom is a source for the environment variable's value */
  valueFrom?: EnvVarSource;
}

/** EnvVarSource represents a source for the value of an EnvVar */
export interface EnvVarSource {
  /** SecretKeyRef selects a key of a secret in the pod's namespace */
  secretKeyRef?: SecretKeySelector;
  /** ConfigMapKeyRef selects a key of a ConfigMap in the pod's namespace */
  configMapKeyRef?: ConfigMapKeySelector;
}

/** SecretKeySelector selects a key of a Secret */
export interface SecretKeySelector {
  /** Name of the secret */
  name: string;
  /** Key to select from the secret */
  key: string;
}

/** ConfigMapKeySelector selects a key of a ConfigMap */
export interface ConfigMapKeySelector {
  /** Name of the ConfigMap */
  name: string;
  /** Key to select from the ConfigMap */
  key: string;
}

/** AutoScalingSpec defines the autoscaling configuration */
export interface AutoScalingSpec {
  /**
   * Enabled indicates whether autoscaling is enabled
   * @default false
   */
  enabled: boolean;
  /**
   * MinReplicas is the minimum number of replicas
   * @validation Minimum=1
   * @default 1
   */
  minReplicas?: int32;
  /**
   * MaxReplicas is the maximum number of replicas
   * @validation Minimum=1
   * @validation Maximum=100
   */
  maxReplicas: int32;
  /**
   * TargetCPUUtilizationPercentage is the target CPU utilization
   * @validation Minimum=1
   * @validation Maximum=100
   * @default 80
   */
  targetCPUUtilizationPercentage?: int32;
}

/** MyAppStatus defines the observed state of MyApp */
export interface MyAppStatus {
  /** Conditions represent the latest available observations of the MyApp's state */
  conditions?: Condition[];
  /** ReadyReplicas is the number of ready replicas */
  readyReplicas?: int32;
  /** AvailableReplicas is the number of available replicas */
  availableReplicas?: int32;
  /** ObservedGeneration is the most recent generation observed */
  observedGeneration?: int64;
  /** LastUpdateTime is the last time the status was updated */
  lastUpdateTime?: Time;
}

/**
 * MyApp is the Schema for the myapps API
 * @resource
 * @subresource status
 * @subresource scale specpath=.spec.replicas statuspath=.status.readyReplicas
 * @printcolumn name=Image type=string jsonPath=`.spec.image`
 * @printcolumn name=Replicas type=integer jsonPath=`.spec.replicas`
 * @printcolumn name=Ready type=integer jsonPath=`.status.readyReplicas`
 * @printcolumn name=Age type=date jsonPath=`.metadata.creationTimestamp`
 */
export interface MyApp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: MyAppSpec;
  status?: MyAppStatus;
}
