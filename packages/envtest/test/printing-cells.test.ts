/**
 * Cells of the built-in printers against the rows kube's own printer tests expect
 * (kubernetes/kubernetes pkg/printers/internalversion/printers_test.go), with the clock pinned so
 * ages are exact.
 */
import { catalogFor } from "@opgen/apimachinery/catalog";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FieldDoc } from "../src/api/resource.js";
import type { KubeObject } from "../src/api/types.js";
import { daemonSets } from "../src/registry/apps/workloads.js";
import { horizontalPodAutoscalers } from "../src/registry/autoscaling/horizontal-pod-autoscalers.js";
import { endpoints } from "../src/registry/core/endpoints.js";
import { services } from "../src/registry/core/services.js";
import { endpointSlices } from "../src/registry/discovery/endpoint-slices.js";
import { ingresses } from "../src/registry/networking/ingresses.js";
import {
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
} from "../src/registry/printing/admission.js";
import {
  apiServicePrinter,
  certificateSigningRequestPrinter,
  controllerRevisionPrinter,
  runtimeClassPrinter,
} from "../src/registry/printing/cluster.js";
import {
  componentStatusPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  podTemplatePrinter,
  resourceQuotaPrinter,
} from "../src/registry/printing/core.js";
import { columnDescription, doc as fieldDoc } from "../src/registry/printing/describe.js";
import {
  flowSchemaPrinter,
  priorityLevelConfigurationPrinter,
} from "../src/registry/printing/flowcontrol.js";
import { ingressClassPrinter, networkPolicyPrinter } from "../src/registry/printing/networking.js";
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from "../src/registry/printing/storage.js";
import { humanDuration, type Printer } from "../src/registry/printing.js";

/** A column description as the 1.32 catalog words it. */
const doc = (type: string, field: string) =>
  columnDescription(fieldDoc(type, field), catalogFor("1.32"));
/** A printer column's description, written as the table writes it for a 1.32 server. */
const described = (d: string | FieldDoc) => columnDescription(d, catalogFor("1.32"));

const NOW = Date.parse("2026-01-10T12:00:00Z");
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterAll(() => {
  vi.useRealTimers();
});

/** kube's tests create objects 1.9s in the future (age `0s`) or 300s in the past (`5m`). */
const soon = () => new Date(NOW + 1900).toISOString();
const fiveMinutesAgo = () => new Date(NOW - 300_000).toISOString();

function obj(name: string, rest: Record<string, unknown>, created?: string): KubeObject {
  return {
    metadata: { name, ...(created ? { creationTimestamp: created } : {}) },
    ...rest,
  } as KubeObject;
}

const cells = (p: Printer, o: KubeObject) => p.cells(o);
const columnNames = (p: Printer) => p.columns.map((c) => (c.priority ? `${c.name}*` : c.name));

describe("HumanDuration", () => {
  it("truncates toward zero as Go's int() does, so 1.9s in the future is 0s", () => {
    expect(humanDuration(-1900)).toBe("0s");
    expect(humanDuration(-2000)).toBe("<invalid>");
    expect(humanDuration(7 * 24 * 3600 * 1000 + 3600 * 1000)).toBe("7d1h");
    expect(humanDuration(10 * 365 * 24 * 3600 * 1000)).toBe("10y");
  });
});

describe("PersistentVolumes", () => {
  const claimRef = { name: "test", namespace: "default" };
  it("prints kube's rows: access modes, claim, classes, <unset> defaults", () => {
    expect(columnNames(persistentVolumePrinter)).toEqual([
      "Name",
      "Capacity",
      "Access Modes",
      "Reclaim Policy",
      "Status",
      "Claim",
      "StorageClass",
      "VolumeAttributesClass",
      "Reason",
      "Age",
      "VolumeMode*",
    ]);
    const pv = (name: string, spec: Record<string, unknown>, phase: string) =>
      obj(name, { spec: { claimRef, ...spec }, status: { phase } });
    expect(
      cells(
        persistentVolumePrinter,
        pv("test1", { accessModes: ["ReadOnlyMany"], capacity: { storage: "4Gi" } }, "Bound"),
      ),
    ).toEqual([
      "test1",
      "4Gi",
      "ROX",
      "",
      "Bound",
      "default/test",
      "",
      "<unset>",
      "",
      "<unknown>",
      "<unset>",
    ]);
    expect(
      cells(
        persistentVolumePrinter,
        pv(
          "test4",
          {
            storageClassName: "my-scn",
            volumeAttributesClassName: "my-vacn",
            accessModes: ["ReadWriteOnce"],
            capacity: { storage: "10Gi" },
          },
          "Pending",
        ),
      ),
    ).toEqual([
      "test4",
      "10Gi",
      "RWO",
      "",
      "Pending",
      "default/test",
      "my-scn",
      "my-vacn",
      "",
      "<unknown>",
      "<unset>",
    ]);
  });

  it("orders access modes as kube does, prefers the beta class annotation, shows Terminating", () => {
    const o = obj("v", {
      spec: {
        accessModes: ["ReadWriteOncePod", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOnce"],
        storageClassName: "field",
        volumeMode: "Block",
        persistentVolumeReclaimPolicy: "Retain",
      },
      status: { phase: "Bound", reason: "Why" },
    });
    o.metadata = {
      ...o.metadata,
      annotations: { "volume.beta.kubernetes.io/storage-class": "annotated" },
      deletionTimestamp: fiveMinutesAgo(),
    };
    expect(cells(persistentVolumePrinter, o)).toEqual([
      "v",
      "0",
      "RWO,RWX,RWOP",
      "Retain",
      "Terminating",
      "",
      "annotated",
      "<unset>",
      "Why",
      "<unknown>",
      "Block",
    ]);
  });
});

describe("PersistentVolumeClaims", () => {
  it("prints kube's rows: capacity and modes only once bound to a volume", () => {
    expect(columnNames(persistentVolumeClaimPrinter)).toEqual([
      "Name",
      "Status",
      "Volume",
      "Capacity",
      "Access Modes",
      "StorageClass",
      "VolumeAttributesClass",
      "Age",
      "VolumeMode*",
    ]);
    const status = (phase: string, mode: string, storage: string) => ({
      phase,
      accessModes: [mode],
      capacity: { storage },
    });
    expect(
      cells(
        persistentVolumeClaimPrinter,
        obj("test1", {
          spec: { volumeName: "my-volume", volumeMode: "Filesystem" },
          status: status("Bound", "ReadOnlyMany", "4Gi"),
        }),
      ),
    ).toEqual([
      "test1",
      "Bound",
      "my-volume",
      "4Gi",
      "ROX",
      "",
      "<unset>",
      "<unknown>",
      "Filesystem",
    ]);
    expect(
      cells(
        persistentVolumeClaimPrinter,
        obj("test2", {
          spec: { volumeMode: "Filesystem" },
          status: status("Lost", "ReadOnlyMany", "4Gi"),
        }),
      ),
    ).toEqual(["test2", "Lost", "", "", "", "", "<unset>", "<unknown>", "Filesystem"]);
    expect(
      cells(
        persistentVolumeClaimPrinter,
        obj("test5", {
          spec: {
            volumeName: "my-volume",
            storageClassName: "my-scn",
            volumeAttributesClassName: "my-vacn",
          },
          status: status("Pending", "ReadWriteOnce", "10Gi"),
        }),
      ),
    ).toEqual([
      "test5",
      "Pending",
      "my-volume",
      "10Gi",
      "RWO",
      "my-scn",
      "my-vacn",
      "<unknown>",
      "<unset>",
    ]);
  });
});

describe("core kinds without an age column, and quotas", () => {
  it("prints ComponentStatuses from the Healthy condition", () => {
    expect(cells(componentStatusPrinter, obj("cs1", { conditions: [] }))).toEqual([
      "cs1",
      "Unknown",
      "",
      "",
    ]);
    const cond = (status: string) => ({
      conditions: [{ type: "Healthy", status, message: "test message", error: "test error" }],
    });
    expect(cells(componentStatusPrinter, obj("cs2", cond("True")))).toEqual([
      "cs2",
      "Healthy",
      "test message",
      "test error",
    ]);
    expect(cells(componentStatusPrinter, obj("cs3", cond("False")))[1]).toBe("Unhealthy");
  });

  it("prints PodTemplates' containers, images and sorted labels", () => {
    const t = obj("tmpl", {
      template: {
        metadata: { labels: { tier: "fe", app: "web" } },
        spec: {
          containers: [
            { name: "a", image: "nginx" },
            { name: "b", image: "busybox" },
          ],
        },
      },
    });
    expect(cells(podTemplatePrinter, t)).toEqual([
      "tmpl",
      "a,b",
      "nginx,busybox",
      "app=web,tier=fe",
    ]);
    expect(cells(podTemplatePrinter, obj("empty", { template: {} }))).toEqual([
      "empty",
      "",
      "",
      "<none>",
    ]);
  });

  it("splits quota usage into requests and limits, sorted by resource", () => {
    const q = obj(
      "test-resourcequota",
      {
        status: {
          used: {
            cpu: "1",
            memory: "1Gi",
            pods: "1",
            services: "1",
            replicationcontrollers: "1",
            resourcequotas: "1",
            "limits.cpu": "2",
            "limits.memory": "2Gi",
          },
          hard: {
            cpu: "100",
            memory: "4Gi",
            pods: "10",
            services: "10",
            replicationcontrollers: "10",
            resourcequotas: "1",
            "limits.cpu": "200",
            "limits.memory": "8Gi",
          },
        },
      },
      fiveMinutesAgo(),
    );
    expect(cells(resourceQuotaPrinter, q)).toEqual([
      "test-resourcequota",
      "cpu: 1/100, memory: 1Gi/4Gi, pods: 1/10, replicationcontrollers: 1/10, resourcequotas: 1/1, services: 1/10",
      "limits.cpu: 2/200, limits.memory: 2Gi/8Gi",
      "5m",
    ]);
    // A hard limit nothing uses yet prints Go's zero quantity.
    const fresh = obj("q", { status: { hard: { pods: "3" } } });
    expect(cells(resourceQuotaPrinter, fresh).slice(1, 3)).toEqual(["pods: 0/3", ""]);
  });
});

describe("storage.k8s.io", () => {
  it("prints StorageClasses with kube's defaults for unset fields", () => {
    expect(
      cells(storageClassPrinter, obj("sc1", { provisioner: "kubernetes.io/glusterfs" }, soon())),
    ).toEqual(["sc1", "kubernetes.io/glusterfs", "Delete", "Immediate", false, "0s"]);
    expect(
      cells(
        storageClassPrinter,
        obj(
          "sc6",
          {
            provisioner: "kubernetes.io/nfs",
            reclaimPolicy: "Retain",
            allowVolumeExpansion: true,
            volumeBindingMode: "WaitForFirstConsumer",
          },
          fiveMinutesAgo(),
        ),
      ),
    ).toEqual(["sc6", "kubernetes.io/nfs", "Retain", "WaitForFirstConsumer", true, "5m"]);
    const dflt = obj("std", { provisioner: "p" });
    dflt.metadata = {
      ...dflt.metadata,
      annotations: { "storageclass.beta.kubernetes.io/is-default-class": "true" },
    };
    expect(cells(storageClassPrinter, dflt)[0]).toBe("std (default)");
  });

  it("prints VolumeAttachments, CSIDrivers, CSINodes and CSIStorageCapacities", () => {
    expect(
      cells(
        volumeAttachmentPrinter,
        obj("va", {
          spec: { attacher: "csi.x", source: { persistentVolumeName: "pv1" }, nodeName: "n1" },
        }),
      ),
    ).toEqual(["va", "csi.x", "pv1", "n1", false, "<unknown>"]);
    expect(cells(csiDriverPrinter, obj("d", { spec: {} }))).toEqual([
      "d",
      true,
      false,
      false,
      "<unset>",
      false,
      "<none>",
      "<unknown>",
    ]);
    expect(
      cells(
        csiDriverPrinter,
        obj("d", {
          spec: {
            attachRequired: false,
            podInfoOnMount: true,
            storageCapacity: true,
            tokenRequests: [{ audience: "a" }, { audience: "b" }],
            requiresRepublish: true,
            volumeLifecycleModes: ["Persistent", "Ephemeral"],
          },
        }),
      ).slice(1, 7),
    ).toEqual([false, true, true, "a,b", true, "Persistent,Ephemeral"]);
    expect(cells(csiNodePrinter, obj("n", { spec: { drivers: [{}, {}] } }))).toEqual([
      "n",
      2,
      "<unknown>",
    ]);
    expect(cells(csiStorageCapacityPrinter, obj("c", { storageClassName: "fast" }))).toEqual([
      "c",
      "fast",
      "<unset>",
    ]);
    expect(columnNames(csiStorageCapacityPrinter)).toEqual([
      "Name",
      "StorageClassName",
      "Capacity",
    ]);
  });
});

describe("networking, node and admission kinds", () => {
  it("prints NetworkPolicies' pod selector, <none> for an empty one", () => {
    expect(cells(networkPolicyPrinter, obj("policy1", { spec: {} }, soon()))).toEqual([
      "policy1",
      "<none>",
      "0s",
    ]);
    expect(
      cells(
        networkPolicyPrinter,
        obj("policy2", { spec: { podSelector: { matchLabels: { foo: "bar" } } } }, soon()),
      ),
    ).toEqual(["policy2", "foo=bar", "0s"]);
  });

  it("prints IngressClass parameters with and without an API group", () => {
    const ic = (parameters?: Record<string, unknown>) =>
      obj("c", { spec: { controller: "k8s.io/x", ...(parameters ? { parameters } : {}) } });
    expect(cells(ingressClassPrinter, ic())[2]).toBe("<none>");
    expect(cells(ingressClassPrinter, ic({ kind: "P", name: "n", apiGroup: "g.io" }))[2]).toBe(
      "P.g.io/n",
    );
    expect(cells(ingressClassPrinter, ic({ kind: "P", name: "n" }))[2]).toBe("P/n");
  });

  it("prints RuntimeClasses, whose Handler column kube leaves undescribed", () => {
    expect(cells(runtimeClassPrinter, obj("rc2", { handler: "h2" }, fiveMinutesAgo()))).toEqual([
      "rc2",
      "h2",
      "5m",
    ]);
    expect(described(runtimeClassPrinter.columns[1]!.description)).toBe("");
  });

  it("counts webhooks and validations, and prints bindings' params", () => {
    expect(cells(webhookConfigurationPrinter, obj("w", { webhooks: [{}, {}] }))).toEqual([
      "w",
      2,
      "<unknown>",
    ]);
    expect(cells(validatingAdmissionPolicyPrinter, obj("p", { spec: {} }))).toEqual([
      "p",
      0,
      "<unset>",
      "<unknown>",
    ]);
    expect(
      cells(
        validatingAdmissionPolicyPrinter,
        obj("p", {
          spec: { validations: [{}], paramKind: { apiVersion: "v1", kind: "ConfigMap" } },
        }),
      )[2],
    ).toBe("v1/ConfigMap");
    const binding = (paramRef?: Record<string, unknown>) =>
      obj(
        "config",
        { spec: { policyName: "test-scale.example.com", ...(paramRef ? { paramRef } : {}) } },
        fiveMinutesAgo(),
      );
    expect(
      cells(
        validatingAdmissionPolicyBindingPrinter,
        binding({ name: "test-scale-setting.example.com", parameterNotFoundAction: "Deny" }),
      ),
    ).toEqual(["config", "test-scale.example.com", "*/test-scale-setting.example.com", "5m"]);
    expect(
      cells(validatingAdmissionPolicyBindingPrinter, binding({ name: "p", namespace: "ns" }))[2],
    ).toBe("ns/p");
    expect(cells(validatingAdmissionPolicyBindingPrinter, binding())[2]).toBe("<unset>");
    expect(
      cells(
        validatingAdmissionPolicyBindingPrinter,
        binding({
          selector: {
            matchLabels: { b: "2", a: "1" },
            matchExpressions: [{ key: "k", operator: "In", values: ["x", "y"] }],
          },
        }),
      )[2],
    ).toBe(
      "&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}",
    );
  });
});

describe("flowcontrol", () => {
  it("prints FlowSchemas as kube's tests expect and sorts lists by precedence, then name", () => {
    const fs = (name: string, spec: Record<string, unknown>, status?: unknown) =>
      obj(name, { spec, ...(status ? { status } : {}) }, fiveMinutesAgo());
    expect(
      cells(
        flowSchemaPrinter,
        fs(
          "some-matcher",
          {
            priorityLevelConfiguration: { name: "allee" },
            matchingPrecedence: 0,
            distinguisherMethod: { type: "ByNamespace" },
          },
          { conditions: [{ type: "Dangling", status: "True" }] },
        ),
      ),
    ).toEqual(["some-matcher", "allee", 0, "ByNamespace", "5m", "True"]);
    expect(
      cells(flowSchemaPrinter, fs("exempt", { priorityLevelConfiguration: { name: "allee" } })),
    ).toEqual(["exempt", "allee", 0, "<none>", "5m", "?"]);
    const order = flowSchemaPrinter.order!([
      fs("b", { matchingPrecedence: 10 }),
      fs("z", { matchingPrecedence: 1 }),
      fs("a", { matchingPrecedence: 10 }),
    ]).map((o) => o.metadata?.name);
    expect(order).toEqual(["z", "a", "b"]);
  });

  it("prints PriorityLevelConfigurations' limits, <none> where there are none", () => {
    expect(
      cells(
        priorityLevelConfigurationPrinter,
        obj("unlimited", { spec: { type: "Exempt" } }, soon()),
      ),
    ).toEqual(["unlimited", "Exempt", "<none>", "<none>", "<none>", "<none>", "0s"]);
    expect(
      cells(
        priorityLevelConfigurationPrinter,
        obj(
          "unqueued",
          {
            spec: {
              type: "Limited",
              limited: { nominalConcurrencyShares: 47, limitResponse: { type: "Reject" } },
            },
          },
          soon(),
        ),
      ),
    ).toEqual(["unqueued", "Limited", 47, "<none>", "<none>", "<none>", "0s"]);
    expect(
      cells(
        priorityLevelConfigurationPrinter,
        obj(
          "queued",
          {
            spec: {
              type: "Limited",
              limited: {
                nominalConcurrencyShares: 42,
                limitResponse: {
                  type: "Queue",
                  queuing: { queues: 8, handSize: 3, queueLengthLimit: 4 },
                },
              },
            },
          },
          soon(),
        ),
      ),
    ).toEqual(["queued", "Limited", 42, 8, 3, 4, "0s"]);
  });
});

describe("certificates, revisions and API services", () => {
  it("prints CertificateSigningRequests as kube's tests expect", () => {
    const csr = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
      obj("csr2", { spec, status }, soon());
    expect(cells(certificateSigningRequestPrinter, csr({}))).toEqual([
      "csr2",
      "0s",
      "<none>",
      "",
      "<none>",
      "Pending",
    ]);
    const approved = { conditions: [{ type: "Approved" }] };
    expect(
      cells(
        certificateSigningRequestPrinter,
        csr(
          {
            username: "CSR Requestor",
            signerName: "example.com/test-signer",
            expirationSeconds: 7 * 24 * 3600 + 3600,
          },
          approved,
        ),
      ),
    ).toEqual(["csr2", "0s", "example.com/test-signer", "CSR Requestor", "7d1h", "Approved"]);
    expect(
      cells(
        certificateSigningRequestPrinter,
        csr({ username: "CSR Requestor" }, { ...approved, certificate: "Y2VydA==" }),
      )[5],
    ).toBe("Approved,Issued");
    expect(
      cells(
        certificateSigningRequestPrinter,
        csr({}, { conditions: [{ type: "Approved" }, { type: "Denied" }, { type: "Failed" }] }),
      )[5],
    ).toBe("Denied,Failed");
  });

  it("prints ControllerRevisions' controller as kind.group/name", () => {
    const rev = (revision: number, ownerReferences?: unknown[]) => {
      const o = obj(`test${revision}`, { revision }, soon());
      if (ownerReferences)
        o.metadata = { ...o.metadata, ownerReferences } as KubeObject["metadata"];
      return o;
    };
    expect(
      cells(
        controllerRevisionPrinter,
        rev(1, [{ controller: true, apiVersion: "apps/v1", kind: "DaemonSet", name: "foo" }]),
      ),
    ).toEqual(["test1", "daemonset.apps/foo", 1, "0s"]);
    expect(
      cells(controllerRevisionPrinter, rev(2, [{ controller: false, kind: "ABC", name: "foo" }])),
    ).toEqual(["test2", "<none>", 2, "0s"]);
    expect(
      cells(
        controllerRevisionPrinter,
        rev(3, [{ controller: true, apiVersion: "v1", kind: "Pod", name: "p" }]),
      )[1],
    ).toBe("pod/p");
  });

  it("prints APIServices as kube-aggregator does", () => {
    const svc = (spec: Record<string, unknown>, conditions?: unknown[]) =>
      obj("v1.example.com", { spec, ...(conditions ? { status: { conditions } } : {}) });
    expect(cells(apiServicePrinter, svc({}))).toEqual([
      "v1.example.com",
      "Local",
      "Unknown",
      "<unknown>",
    ]);
    expect(
      cells(
        apiServicePrinter,
        svc({ service: { namespace: "ns", name: "api" } }, [
          { type: "Available", status: "False", reason: "MissingEndpoints" },
        ]),
      ).slice(1, 3),
    ).toEqual(["ns/api", "False (MissingEndpoints)"]);
    expect(
      cells(
        apiServicePrinter,
        svc({}, [{ type: "Available", status: "True", reason: "Local" }]),
      )[2],
    ).toBe("True");
  });
});

describe("column descriptions", () => {
  it("are the 1.32 OpenAPI descriptions of the fields kube's printers cite", () => {
    expect(described(persistentVolumePrinter.columns[1]!.description)).toBe(
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    );
    expect(described(storageClassPrinter.columns[1]!.description)).toBe(
      doc("api.storage.v1.StorageClass", "provisioner"),
    );
    expect(doc("api.storage.v1.StorageClass", "provisioner")).toMatch(/^provisioner indicates/);
    expect(described(persistentVolumePrinter.columns[0]!.description)).toBe(
      doc("apimachinery.pkg.apis.meta.v1.ObjectMeta", "name"),
    );
    expect(described(persistentVolumePrinter.columns[9]!.description)).toBe(
      doc("apimachinery.pkg.apis.meta.v1.ObjectMeta", "creationTimestamp"),
    );
  });
});

describe("services, endpoints and ingresses", () => {
  const v1 = { name: "v1" } as Parameters<NonNullable<typeof services.printer>>[0];
  const svc = services.printer!(v1)!;
  const service = (name: string, spec: Record<string, unknown>, status?: unknown) =>
    obj(name, { spec, ...(status ? { status } : {}) });
  const lb = (...points: Record<string, string>[]) => ({ loadBalancer: { ingress: points } });

  it("prints kube's service rows: first cluster IP, external IPs by type, sorted selector", () => {
    const ports = [{ protocol: "tcp", port: 2233 }];
    expect(
      cells(
        svc,
        service("test1", {
          type: "ClusterIP",
          ports,
          clusterIPs: ["10.9.8.7"],
          selector: { foo: "bar", app: "x" },
        }),
      ),
    ).toEqual([
      "test1",
      "ClusterIP",
      "10.9.8.7",
      "<none>",
      "2233/tcp",
      "<unknown>",
      "app=x,foo=bar",
    ]);
    expect(
      cells(
        svc,
        service("test2", {
          type: "NodePort",
          ports: [{ protocol: "tcp", port: 8888, nodePort: 9999 }],
          clusterIPs: ["10.9.8.7"],
        }),
      ).slice(1, 5),
    ).toEqual(["NodePort", "10.9.8.7", "<none>", "8888:9999/tcp"]);
    const lbSpec = {
      type: "LoadBalancer",
      ports: [{ protocol: "tcp", port: 8888 }],
      clusterIPs: ["10.9.8.7"],
    };
    expect(cells(svc, service("test3", lbSpec))[3]).toBe("<pending>");
    expect(cells(svc, service("test4", { ...lbSpec, externalIPs: ["80.11.12.10"] }))[3]).toBe(
      "80.11.12.10",
    );
    expect(
      cells(
        svc,
        service(
          "test5",
          { ...lbSpec, externalIPs: ["80.11.12.10"] },
          lb({ ip: "3.4.5.6", hostname: "test.cluster.com" }),
        ),
      )[3],
    ).toBe("3.4.5.6,80.11.12.10");
    expect(
      cells(
        svc,
        service(
          "test6",
          { ...lbSpec, externalIPs: ["80.11.12.10", "80.11.12.11"] },
          lb({ ip: "3.4.5.6", hostname: "test.cluster.com" }, { ip: "2.3.4.5", hostname: "x" }),
        ),
      )[3],
    ).toBe("2.3.4.5,3.4.5.6,80.11.12.10,80.11.12.11");
    expect(
      cells(
        svc,
        service("test7", { type: "ExternalName", externalName: "my.database.example.com" }),
      ),
    ).toEqual([
      "test7",
      "ExternalName",
      "<none>",
      "my.database.example.com",
      "<none>",
      "<unknown>",
      "<none>",
    ]);
    // A load balancer's points show on ClusterIP services only as kube shows them: not at all.
    expect(
      cells(
        svc,
        service("t", { type: "ClusterIP", clusterIPs: ["None"] }, lb({ ip: "1.1.1.1" })),
      )[2],
    ).toBe("None");
  });

  it("prints endpoints port by port, bare IPs without ports, IPv6 in brackets, then + N more", () => {
    const ep = endpoints.printer!(v1)!;
    const addrs = (...ips: string[]) => ips.map((ip) => ({ ip }));
    expect(cells(ep, obj("endpoint1", {}))).toEqual(["endpoint1", "<none>", "<unknown>"]);
    expect(
      cells(ep, obj("endpoint3", { subsets: [{ addresses: addrs("1.2.3.4", "5.6.7.8") }] }))[1],
    ).toBe("1.2.3.4,5.6.7.8");
    expect(
      cells(
        ep,
        obj("endpoint2", {
          subsets: [
            {
              addresses: addrs("1.2.3.4", "5.6.7.8", "9.8.7.6", "6.6.6.6"),
              ports: [{ port: 8001, protocol: "TCP" }],
            },
          ],
        }),
      )[1],
    ).toBe("1.2.3.4:8001,5.6.7.8:8001,9.8.7.6:8001 + 1 more...");
    expect(
      cells(
        ep,
        obj("multi", {
          subsets: [
            { addresses: addrs("1.2.3.4", "fd00::1"), ports: [{ port: 80 }, { port: 443 }] },
          ],
        }),
      )[1],
    ).toBe("1.2.3.4:80,[fd00::1]:80,1.2.3.4:443 + 1 more...");
  });

  it("prints ingress hosts (three, then every further rule counted) and sorted addresses", () => {
    const ing = ingresses.printer!(v1)!;
    const rules = (...hosts: string[]) => hosts.map((host) => (host ? { host } : {}));
    expect(cells(ing, obj("i", { spec: { rules: rules("", "") } }))[2]).toBe("*");
    expect(cells(ing, obj("i", { spec: { rules: rules("a", "", "b", "c", "") } }))[2]).toBe(
      "a,b,c + 2 more...",
    );
    expect(
      cells(
        ing,
        obj("i", {
          spec: { ingressClassName: "nginx", tls: [{}] },
          status: lb({ hostname: "z.example.com" }, { ip: "10.0.0.2" }, { ip: "10.0.0.2" }),
        }),
      ).slice(1, 5),
    ).toEqual(["nginx", "*", "10.0.0.2,z.example.com", "80, 443"]);
  });
});

describe("endpoint slices and daemon sets", () => {
  const v1 = { name: "v1" } as Parameters<NonNullable<typeof endpointSlices.printer>>[0];
  it("prints kube's endpoint slice rows, `*` or the name for ports without a number", () => {
    const es = endpointSlices.printer!(v1)!;
    const port = (name: string, p?: number) => ({
      name,
      protocol: "TCP",
      ...(p ? { port: p } : {}),
    });
    expect(
      cells(
        es,
        obj(
          "multiportslice.123",
          {
            addressType: "IPv4",
            ports: [
              port("http", 80),
              port("https", 443),
              port("extra1", 3000),
              port("extra2", 3001),
            ],
            endpoints: [
              { addresses: ["10.1.2.3", "2001:db8::1234:5678"] },
              { addresses: ["10.2.3.4", "2001:db8::2345:6789"] },
            ],
          },
          fiveMinutesAgo(),
        ),
      ),
    ).toEqual([
      "multiportslice.123",
      "IPv4",
      "80,443,3000 + 1 more...",
      "10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more...",
      "5m",
    ]);
    expect(
      cells(es, obj("s", { addressType: "FQDN", ports: [{ name: "dns" }, {}] })).slice(1, 4),
    ).toEqual(["FQDN", "dns,*", "<unset>"]);
  });

  it("prints a daemon set's node selector sorted by key", () => {
    const ds = daemonSets.printer!(v1)!;
    const row = cells(
      ds,
      obj("d", { spec: { template: { spec: { nodeSelector: { zone: "a", disk: "ssd" } } } } }),
    );
    expect(row[6]).toBe("disk=ssd,zone=a");
    expect(cells(ds, obj("e", { spec: { template: { spec: {} } } }))[6]).toBe("<none>");
  });
});

describe("HorizontalPodAutoscalers", () => {
  const printer = horizontalPodAutoscalers.printer?.({ name: "v2" } as never) as Printer;
  it("types every column but Name and Age as string and takes v2's field docs, as kube 1.32", () => {
    expect(printer.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      "Name:string",
      "Reference:string",
      "Targets:string",
      "MinPods:string",
      "MaxPods:string",
      "Replicas:string",
      "Age:string",
    ]);
    expect(described(printer.columns[3]!.description)).toBe(
      doc("api.autoscaling.v2.HorizontalPodAutoscalerSpec", "minReplicas"),
    );
    expect(described(printer.columns[3]!.description)).toMatch(/^minReplicas is the lower limit/);
    expect(described(printer.columns[5]!.description)).toBe(
      doc("api.autoscaling.v2.HorizontalPodAutoscalerStatus", "currentReplicas"),
    );
  });
  it("prints minPods as a string (<unset> when absent), maxPods and replicas as numbers", () => {
    const hpa = (spec: Record<string, unknown>) =>
      obj(
        "web",
        {
          apiVersion: "autoscaling/v2",
          kind: "HorizontalPodAutoscaler",
          spec: { scaleTargetRef: { kind: "Deployment", name: "web" }, maxReplicas: 5, ...spec },
          status: { currentReplicas: 2 },
        },
        fiveMinutesAgo(),
      );
    expect(cells(printer, hpa({ minReplicas: 2, metrics: [] })).slice(3)).toEqual([
      "2",
      5,
      2,
      "5m",
    ]);
    expect(cells(printer, hpa({ metrics: [] }))[3]).toBe("<unset>");
  });
});
