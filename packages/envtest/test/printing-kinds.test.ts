/**
 * `kubectl get` (and `-o wide`) for the built-ins beyond the workloads, driven with the real
 * kubectl against fixed objects: every column and cell as kube-apiserver 1.32 prints them. Ages
 * are the only relative cells; they are matched as ages, everything else exactly.
 */
import { catalogFor } from "@opgen/apimachinery/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { columnDescription, doc as fieldDoc } from "../src/registry/printing/describe.js";
import { api, kubectl } from "./helpers.js";

/** A column description as the 1.32 catalog words it. */
const doc = (type: string, field: string) =>
  columnDescription(fieldDoc(type, field), catalogFor("1.32"));

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
  const applied = await kubectl(env, ["apply", "-f", "-"], OBJECTS);
  expect(applied.stderr).toBe("");
});
afterAll(async () => {
  await env?.stop();
});

const AGE = expect.stringMatching(/^\d+s$/);

/**
 * A `kubectl get` table cut into cells at the header's column starts (kubectl aligns every cell
 * under its header), so empty cells stay in place.
 */
async function table(args: string[]): Promise<unknown[][]> {
  const r = await kubectl(env, ["get", ...args]);
  expect(r.stderr).toBe("");
  const [header = "", ...lines] = r.stdout.split("\n");
  const starts = [...header.matchAll(/(?:^|\s{2,})(\S(?:\S| \S)*)/g)].map(
    (m) => m.index + m[0].indexOf(m[1]!),
  );
  const cut = (line: string) =>
    starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim());
  return [cut(header), ...lines.map(cut)];
}

const OBJECTS = `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 4Gi}
  accessModes: [ReadOnlyMany, ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: fast
  volumeMode: Block
  hostPath: {path: /data}
  claimRef: {namespace: default, name: data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: fast
---
apiVersion: v1
kind: PodTemplate
metadata: {name: tmpl}
template:
  metadata: {labels: {tier: fe, app: web}}
  spec:
    containers: [{name: a, image: nginx}, {name: b, image: busybox}]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: example.com/fast
volumeBindingMode: WaitForFirstConsumer
allowVolumeExpansion: true
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: example.com/slow
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: csi.example.com}
spec:
  attachRequired: false
  tokenRequests: [{audience: a}, {audience: b}]
  volumeLifecycleModes: [Persistent, Ephemeral]
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: node-1}
spec:
  drivers: [{name: csi.example.com, nodeID: n1}]
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: va-1}
spec:
  attacher: csi.example.com
  nodeName: node-1
  source: {persistentVolumeName: pv1}
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap-1}
storageClassName: fast
capacity: 100Gi
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web}
spec:
  podSelector: {matchLabels: {app: web}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: all}
spec:
  podSelector: {}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec:
  controller: k8s.io/ingress-nginx
  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: gvisor}
handler: runsc
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: aa-late}
spec:
  priorityLevelConfiguration: {name: queued}
  matchingPrecedence: 5000
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: zz-early}
spec:
  priorityLevelConfiguration: {name: queued}
  matchingPrecedence: 100
  distinguisherMethod: {type: ByUser}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: queued}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 10
    limitResponse: {type: Queue, queuing: {queues: 8, handSize: 3, queueLengthLimit: 4}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  validations: [{expression: "object.spec.replicas <= 5"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-name}
spec:
  policyName: max-replicas
  validationActions: [Deny]
  paramRef: {name: limits, parameterNotFoundAction: Allow}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-selector}
spec:
  policyName: max-replicas
  validationActions: [Deny]
  paramRef: {selector: {matchLabels: {a: b}}, parameterNotFoundAction: Allow}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hooks}
webhooks:
- name: one.example.com
  clientConfig: {url: "https://one.example.com/validate"}
  admissionReviewVersions: [v1]
  sideEffects: None
  rules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}]
- name: two.example.com
  clientConfig: {url: "https://two.example.com/validate"}
  admissionReviewVersions: [v1]
  sideEffects: None
  rules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}]
`;

describe("kubectl get for storage", () => {
  it("prints PersistentVolumes and claims with their wide VOLUMEMODE", async () => {
    // A new volume starts Pending, stamped with its phase transition (as kube-apiserver 1.32).
    const pv = (await api(env, "GET", "/api/v1/persistentvolumes/pv1")).body;
    expect(pv.status).toEqual({
      phase: "Pending",
      lastPhaseTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(await table(["pv", "-o", "wide"])).toEqual([
      [
        "NAME",
        "CAPACITY",
        "ACCESS MODES",
        "RECLAIM POLICY",
        "STATUS",
        "CLAIM",
        "STORAGECLASS",
        "VOLUMEATTRIBUTESCLASS",
        "REASON",
        "AGE",
        "VOLUMEMODE",
      ],
      [
        "pv1",
        "4Gi",
        "RWO,ROX",
        "Retain",
        "Pending",
        "default/data",
        "fast",
        "<unset>",
        "",
        AGE,
        "Block",
      ],
    ]);
    expect(await table(["pvc", "-o", "wide"])).toEqual([
      [
        "NAME",
        "STATUS",
        "VOLUME",
        "CAPACITY",
        "ACCESS MODES",
        "STORAGECLASS",
        "VOLUMEATTRIBUTESCLASS",
        "AGE",
        "VOLUMEMODE",
      ],
      ["data", "Pending", "", "", "", "fast", "<unset>", AGE, "Filesystem"],
    ]);
  });

  it("prints storage classes (the default one marked), CSI objects and attachments", async () => {
    expect(await table(["storageclasses"])).toEqual([
      ["NAME", "PROVISIONER", "RECLAIMPOLICY", "VOLUMEBINDINGMODE", "ALLOWVOLUMEEXPANSION", "AGE"],
      ["fast (default)", "example.com/fast", "Delete", "WaitForFirstConsumer", "true", AGE],
      ["slow", "example.com/slow", "Delete", "Immediate", "false", AGE],
    ]);
    expect(await table(["csidrivers"])).toEqual([
      [
        "NAME",
        "ATTACHREQUIRED",
        "PODINFOONMOUNT",
        "STORAGECAPACITY",
        "TOKENREQUESTS",
        "REQUIRESREPUBLISH",
        "MODES",
        "AGE",
      ],
      ["csi.example.com", "false", "false", "false", "a,b", "false", "Persistent,Ephemeral", AGE],
    ]);
    expect(await table(["csinodes"])).toEqual([
      ["NAME", "DRIVERS", "AGE"],
      ["node-1", "1", AGE],
    ]);
    expect(await table(["volumeattachments"])).toEqual([
      ["NAME", "ATTACHER", "PV", "NODE", "ATTACHED", "AGE"],
      ["va-1", "csi.example.com", "pv1", "node-1", "false", AGE],
    ]);
    expect(await table(["csistoragecapacities"])).toEqual([
      ["NAME", "STORAGECLASSNAME", "CAPACITY"],
      ["cap-1", "fast", "100Gi"],
    ]);
  });
});

describe("kubectl get for core, networking and node kinds", () => {
  it("prints pod templates, quotas and component statuses", async () => {
    expect(await table(["podtemplates"])).toEqual([
      ["NAME", "CONTAINERS", "IMAGES", "POD LABELS"],
      ["tmpl", "a,b", "nginx,busybox", "app=web,tier=fe"],
    ]);
    // The resourcequota controller fills status from what the namespace holds.
    const ns = ["-n", "quota-print"];
    await kubectl(env, ["create", "namespace", "quota-print"]);
    await kubectl(env, [
      ...ns,
      "create",
      "quota",
      "q",
      "--hard=pods=10,requests.cpu=1,limits.memory=2Gi",
    ]);
    for (const name of ["a", "b"]) {
      const resources = { requests: { cpu: "250m" }, limits: { memory: "128Mi" } };
      const overrides = JSON.stringify({
        spec: { containers: [{ name, image: "nginx", resources }] },
      });
      const run = await kubectl(env, [
        ...ns,
        "run",
        name,
        "--image=nginx",
        `--overrides=${overrides}`,
      ]);
      expect(run.stderr).toBe("");
    }
    expect(await table(["quota", ...ns])).toEqual([
      ["NAME", "REQUEST", "LIMIT", "AGE"],
      ["q", "pods: 2/10, requests.cpu: 500m/1", "limits.memory: 256Mi/2Gi", AGE],
    ]);
  });

  it("prints network policies, ingress classes and runtime classes", async () => {
    expect(await table(["networkpolicies"])).toEqual([
      ["NAME", "POD-SELECTOR", "AGE"],
      ["all", "<none>", AGE],
      ["web", "app=web", AGE],
    ]);
    expect(await table(["ingressclasses"])).toEqual([
      ["NAME", "CONTROLLER", "PARAMETERS", "AGE"],
      ["nginx", "k8s.io/ingress-nginx", "IngressParameters.k8s.example.com/external-lb", AGE],
    ]);
    expect(await table(["runtimeclasses"])).toEqual([
      ["NAME", "HANDLER", "AGE"],
      ["gvisor", "runsc", AGE],
    ]);
  });

  it("prints controller revisions with their controller as kind.group/name", async () => {
    await kubectl(env, ["create", "deployment", "owner", "--image=nginx"]);
    const owner = (await api(env, "GET", "/apis/apps/v1/namespaces/default/deployments/owner"))
      .body;
    const created = await api(env, "POST", "/apis/apps/v1/namespaces/default/controllerrevisions", {
      metadata: {
        name: "owner-1",
        ownerReferences: [
          {
            apiVersion: "apps/v1",
            kind: "Deployment",
            name: "owner",
            uid: owner.metadata.uid,
            controller: true,
          },
        ],
      },
      revision: 3,
      data: {},
    });
    expect(created.status).toBe(201);
    expect(await table(["controllerrevisions"])).toEqual([
      ["NAME", "CONTROLLER", "REVISION", "AGE"],
      ["owner-1", "deployment.apps/owner", "3", AGE],
    ]);
  });
});

describe("kubectl get for API machinery kinds", () => {
  it("prints flow schemas in matching order and priority levels", async () => {
    expect(await table(["flowschemas"])).toEqual([
      ["NAME", "PRIORITYLEVEL", "MATCHINGPRECEDENCE", "DISTINGUISHERMETHOD", "AGE", "MISSINGPL"],
      ["zz-early", "queued", "100", "ByUser", AGE, "?"],
      ["aa-late", "queued", "5000", "<none>", AGE, "?"],
    ]);
    expect(await table(["prioritylevelconfigurations"])).toEqual([
      ["NAME", "TYPE", "NOMINALCONCURRENCYSHARES", "QUEUES", "HANDSIZE", "QUEUELENGTHLIMIT", "AGE"],
      ["queued", "Limited", "10", "8", "3", "4", AGE],
    ]);
  });

  it("prints admission policies, bindings and webhook configurations", async () => {
    expect(await table(["validatingadmissionpolicies"])).toEqual([
      ["NAME", "VALIDATIONS", "PARAMKIND", "AGE"],
      ["max-replicas", "1", "v1/ConfigMap", AGE],
    ]);
    expect(await table(["validatingadmissionpolicybindings"])).toEqual([
      ["NAME", "POLICYNAME", "PARAMREF", "AGE"],
      ["by-name", "max-replicas", "*/limits", AGE],
      [
        "by-selector",
        "max-replicas",
        "&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}",
        AGE,
      ],
    ]);
    expect(await table(["validatingwebhookconfigurations"])).toEqual([
      ["NAME", "WEBHOOKS", "AGE"],
      ["hooks", "2", AGE],
    ]);
  });

  it("prints NAME and CREATED AT for kinds kube gives only the default table", async () => {
    await kubectl(env, ["create", "clusterrole", "reader", "--verb=get", "--resource=pods"]);
    const [head, row] = await table(["clusterrole", "reader"]);
    expect(head).toEqual(["NAME", "CREATED AT"]);
    expect(row).toEqual(["reader", expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)]);
    const created = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
    const crd = await api(env, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      metadata: { name: "widgets.example.com" },
      spec: {
        group: "example.com",
        names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object" } },
          },
        ],
      },
    });
    expect(crd.status).toBe(201);
    expect(await table(["crd", "widgets.example.com"])).toEqual([
      ["NAME", "CREATED AT"],
      ["widgets.example.com", expect.stringMatching(created)],
    ]);
    await kubectl(
      env,
      ["create", "-f", "-"],
      "apiVersion: v1\nkind: LimitRange\nmetadata: {name: limits}\nspec:\n  limits: [{type: Container, max: {cpu: '2'}}]\n",
    );
    expect(await table(["limitranges"])).toEqual([
      ["NAME", "CREATED AT"],
      ["limits", expect.stringMatching(created)],
    ]);
  });
});

describe("kubectl get for nodes, events and priority classes", () => {
  it("prints nodes' roles, scheduling state and wide system columns", async () => {
    const created = await api(env, "POST", "/api/v1/nodes", {
      metadata: {
        name: "worker-1",
        labels: { "node-role.kubernetes.io/worker": "", "kubernetes.io/role": "gpu" },
      },
      spec: { unschedulable: true },
    });
    expect(created.status).toBe(201);
    const status = await api(
      env,
      "PATCH",
      "/api/v1/nodes/worker-1/status",
      {
        status: {
          conditions: [{ type: "Ready", status: "False", reason: "KubeletNotReady" }],
          addresses: [
            { type: "Hostname", address: "worker-1" },
            { type: "InternalIP", address: "10.0.0.7" },
          ],
          nodeInfo: { kubeletVersion: "v1.32.0", osImage: "Debian GNU/Linux 12 (bookworm)" },
        },
      },
      { contentType: "application/merge-patch+json" },
    );
    expect(status.status).toBe(200);
    expect(await table(["node", "worker-1", "-o", "wide"])).toEqual([
      [
        "NAME",
        "STATUS",
        "ROLES",
        "AGE",
        "VERSION",
        "INTERNAL-IP",
        "EXTERNAL-IP",
        "OS-IMAGE",
        "KERNEL-VERSION",
        "CONTAINER-RUNTIME",
      ],
      [
        "worker-1",
        "NotReady,SchedulingDisabled",
        "gpu,worker",
        AGE,
        "v1.32.0",
        "10.0.0.7",
        "<none>",
        "Debian GNU/Linux 12 (bookworm)",
        "<unknown>",
        "<unknown>",
      ],
    ]);
  });

  it("prints events (core/v1 and events.k8s.io/v1) with their wide columns", async () => {
    const core = await api(env, "POST", "/api/v1/namespaces/default/events", {
      metadata: { name: "web.1" },
      involvedObject: {
        kind: "Pod",
        name: "web",
        namespace: "default",
        fieldPath: "spec.containers{app}",
      },
      reason: "Pulled",
      message: "Container image pulled  ",
      type: "Normal",
      source: { component: "kubelet", host: "worker-1" },
      firstTimestamp: "2020-01-01T00:00:00Z",
      lastTimestamp: "2020-01-01T00:00:00Z",
      count: 6,
    });
    expect(core.status).toBe(201);
    const [head, row] = await table([
      "events",
      "--field-selector=metadata.name=web.1",
      "-o",
      "wide",
    ]);
    expect(head).toEqual([
      "LAST SEEN",
      "TYPE",
      "REASON",
      "OBJECT",
      "SUBOBJECT",
      "SOURCE",
      "MESSAGE",
      "FIRST SEEN",
      "COUNT",
      "NAME",
    ]);
    const longAgo = expect.stringMatching(/^\d+y\d*d?$/);
    expect(row).toEqual([
      longAgo,
      "Normal",
      "Pulled",
      "pod/web",
      "spec.containers{app}",
      "kubelet, worker-1",
      "Container image pulled",
      longAgo,
      "6",
      "web.1",
    ]);
    const v1 = await api(env, "POST", "/apis/events.k8s.io/v1/namespaces/default/events", {
      metadata: { name: "web.2" },
      eventTime: "2020-01-01T00:00:00.000000Z",
      regarding: { kind: "Deployment", name: "web", namespace: "default" },
      reason: "ScalingReplicaSet",
      action: "Scale",
      note: "Scaled up",
      type: "Normal",
      reportingController: "deployment-controller",
      reportingInstance: "kcm-1",
    });
    expect(v1.status).toBe(201);
    const [v1Head, v1Row] = await table([
      "events.events.k8s.io",
      "--field-selector=metadata.name=web.2",
      "-o",
      "wide",
    ]);
    expect(v1Head).toEqual(head);
    expect(v1Row).toEqual([
      longAgo,
      "Normal",
      "ScalingReplicaSet",
      "deployment/web",
      "",
      "deployment-controller, kcm-1",
      "Scaled up",
      longAgo,
      "1",
      "web.2",
    ]);
  });

  it("prints priority classes' preemption policy without -o wide", async () => {
    expect(await table(["priorityclass", "system-node-critical"])).toEqual([
      ["NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"],
      ["system-node-critical", "2000001000", "false", AGE, "PreemptLowerPriority"],
    ]);
  });
});

describe("wide selectors and column descriptions", () => {
  it("prints a ReplicationController's label-set selector and a CronJob's job selector", async () => {
    const rc = await api(env, "POST", "/api/v1/namespaces/default/replicationcontrollers", {
      metadata: { name: "legacy" },
      spec: {
        replicas: 0,
        selector: { tier: "fe", app: "legacy" },
        template: {
          metadata: { labels: { tier: "fe", app: "legacy" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    expect(rc.status).toBe(201);
    expect(await table(["rc", "legacy", "-o", "wide"])).toEqual([
      ["NAME", "DESIRED", "CURRENT", "READY", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"],
      ["legacy", "0", "0", "0", AGE, "c", "nginx", "app=legacy,tier=fe"],
    ]);
    const cj = await api(env, "POST", "/apis/batch/v1/namespaces/default/cronjobs", {
      metadata: { name: "nightly" },
      spec: {
        schedule: "0 0 * * *",
        jobTemplate: {
          spec: {
            selector: { matchLabels: { run: "nightly" } },
            manualSelector: true,
            template: {
              metadata: { labels: { run: "nightly" } },
              spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] },
            },
          },
        },
      },
    });
    expect(cj.status).toBe(201);
    const [, row] = await table(["cronjob", "nightly", "-o", "wide"]);
    expect(row!.slice(7)).toEqual(["c", "busybox", "run=nightly"]);
  });

  it("describes columns with the 1.32 OpenAPI docs of the fields kube's printers cite", async () => {
    const t = await api(env, "GET", "/apis/apps/v1/namespaces/default/deployments", undefined, {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    const described = Object.fromEntries(
      (t.body.columnDefinitions as { name: string; description: string }[]).map((c) => [
        c.name,
        c.description,
      ]),
    );
    expect(described).toMatchObject({
      Name: doc("apimachinery.pkg.apis.meta.v1.ObjectMeta", "name"),
      "Up-to-date": doc("api.apps.v1.DeploymentStatus", "updatedReplicas"),
      Age: doc("apimachinery.pkg.apis.meta.v1.ObjectMeta", "creationTimestamp"),
      Selector: doc("api.apps.v1.DeploymentSpec", "selector"),
    });
    expect(described.Selector).toMatch(/^Label selector for pods\./);
    const pvs = await api(env, "GET", "/api/v1/persistentvolumes", undefined, {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    expect(pvs.body.columnDefinitions[6]).toEqual({
      name: "StorageClass",
      type: "string",
      format: "",
      description: "StorageClass of the pv",
      priority: 0,
    });
  });
});

describe("kubectl get for certificate signing requests", () => {
  it("prints signer, requestor, requested duration and condition", async () => {
    // A PKCS#10 request for CN=jane (an EC P-256 key made for this test; the key is not kept).
    const request =
      "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWU1IOENBUUF3SFRFTk1Bc0dBMVVFQXd3RWFtRnVaVEVNTUFvR0ExVUVDZ3dEWkdWMk1Ga3dFd1lIS29aSQp6ajBDQVFZSUtvWkl6ajBEQVFjRFFnQUVMRzIzWXpCVUc5S3JCa2VZbjVKMy95SWlDUWxqb2FQdE43WVF2YmJECldrcmlaY3ZaNjNGYkhIY1h2cjROdjZOdGxEZ2VFc3AvT0lTbE5EbjlOZWlyZzZBQU1Bb0dDQ3FHU000OUJBTUMKQTBrQU1FWUNJUUQ5c0xZVFRZYk8xdW9NRVh4V3VacWtRVUFRUDE3Z0VWSCtpeWNVdWF5Tnh3SWhBT3BCWVJpUAplNmh1WmpBOG5sdUdaNTdQN2w4Sm1wY2R6R2RwUmpBMXQzdFcKLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==";
    const created = await api(
      env,
      "POST",
      "/apis/certificates.k8s.io/v1/certificatesigningrequests",
      {
        metadata: { name: "jane" },
        spec: {
          request,
          signerName: "example.com/dev",
          expirationSeconds: 7 * 24 * 3600 + 3600,
          usages: ["client auth"],
        },
      },
    );
    expect(created.status).toBe(201);
    const [head, row] = await table(["csr", "jane"]);
    expect(head).toEqual([
      "NAME",
      "AGE",
      "SIGNERNAME",
      "REQUESTOR",
      "REQUESTEDDURATION",
      "CONDITION",
    ]);
    expect(row).toEqual([
      "jane",
      AGE,
      "example.com/dev",
      // REQUESTOR is spec.username as stored (kube-apiserver fills it from the requesting user).
      created.body.spec.username ?? "",
      "7d1h",
      "Pending",
    ]);
  });
});

describe("the scale subresource", () => {
  it("prints a workload's Scale with kube's Name, Desired, Available and Age", async () => {
    const created = await kubectl(env, [
      "create",
      "deployment",
      "scaled",
      "--image=nginx",
      "--replicas=3",
    ]);
    expect(created.stderr).toBe("");
    expect(await table(["deployment", "scaled", "--subresource=scale"])).toEqual([
      ["NAME", "DESIRED", "AVAILABLE", "AGE"],
      ["scaled", "3", "0", AGE],
    ]);
    const r = await api(
      env,
      "GET",
      "/apis/apps/v1/namespaces/default/deployments/scaled/scale",
      undefined,
      { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    );
    const t = r.body as {
      columnDefinitions: { name: string; type: string; format: string; description: string }[];
    };
    expect(t.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.format}`)).toEqual([
      "Name:string:",
      "Desired:integer:",
      "Available:integer:",
      "Age:string:",
    ]);
    expect(t.columnDefinitions[1]!.description).toBe(
      doc("api.autoscaling.v1.ScaleSpec", "replicas"),
    );
  });
});
