/**
 * `kubectl get` (and `-o wide`) for the built-ins beyond the workloads, driven with the real
 * kubectl against fixed objects: every column and cell as kube-apiserver 1.32 prints them. Ages
 * are the only relative cells; they are matched as ages, everything else exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

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
  paramRef: {name: limits, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-selector}
spec:
  policyName: max-replicas
  validationActions: [Deny]
  paramRef: {selector: {matchLabels: {a: b}}, parameterNotFoundAction: Deny}
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
      ["data", "", "", "", "", "fast", "<unset>", AGE, "Filesystem"],
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
    // The quota controller fills status; here it is written as it would.
    await kubectl(env, ["create", "quota", "q", "--hard=pods=10,requests.cpu=1,limits.memory=2Gi"]);
    const put = await api(
      env,
      "PATCH",
      "/api/v1/namespaces/default/resourcequotas/q/status",
      {
        status: {
          hard: { pods: "10", "requests.cpu": "1", "limits.memory": "2Gi" },
          used: { pods: "2", "requests.cpu": "500m" },
        },
      },
      { contentType: "application/merge-patch+json" },
    );
    expect(put.status).toBe(200);
    expect(await table(["quota"])).toEqual([
      ["NAME", "REQUEST", "LIMIT", "AGE"],
      ["q", "pods: 2/10, requests.cpu: 500m/1", "limits.memory: 0/2Gi", AGE],
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
    const crd = await kubectl(env, ["get", "crd"]);
    expect(crd.stderr).toBe("No resources found");
  });
});
