"""CRUD of built-ins and a custom resource, dry run, pagination and what typed objects and lists
look like on the wire, through the official Python client."""
import base64
import json

from harness import NAMESPACE, api_client, equal, failure, run
from kubernetes import client

api = api_client()
core = client.CoreV1Api(api)
apps = client.AppsV1Api(api)
batch = client.BatchV1Api(api)
networking = client.NetworkingV1Api(api)
custom = client.CustomObjectsApi(api)
ns = NAMESPACE


def raw(path, method="GET", body=None):
    """A request the typed API cannot express (a path of its own, an exact body): status, JSON."""
    response = api.call_api(path, method, body=body, auth_settings=["BearerToken"],
                            _preload_content=False, _return_http_data_only=True)
    return response.status, json.loads(response.data)


def job(name):
    container = client.V1Container(name="c", image="busybox")
    template = client.V1PodTemplateSpec(
        spec=client.V1PodSpec(restart_policy="Never", containers=[container]))
    return client.V1Job(metadata=client.V1ObjectMeta(name=name),
                        spec=client.V1JobSpec(template=template))


def configmap_crud():
    created = core.create_namespaced_config_map(
        ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="cm"), data={"a": "1"}))
    equal(created.data, {"a": "1"}, "created data")
    read = core.read_namespaced_config_map("cm", ns)
    equal(read.metadata.uid, created.metadata.uid, "uid")
    read.data["b"] = "2"
    replaced = core.replace_namespaced_config_map("cm", ns, read)
    equal(replaced.data, {"a": "1", "b": "2"}, "replaced data")
    stale = client.V1ConfigMap(metadata=client.V1ObjectMeta(
        name="cm", resource_version=created.metadata.resource_version), data={})
    status, body = failure(core.replace_namespaced_config_map, "cm", ns, stale)
    equal((status, body["reason"]), (409, "Conflict"), "stale replace")
    core.delete_namespaced_config_map("cm", ns)
    status, body = failure(core.read_namespaced_config_map, "cm", ns)
    equal((status, body["reason"], body["message"]),
          (404, "NotFound", 'configmaps "cm" not found'), "read after delete")


def create_answers_carry_status():
    # Go's encoder writes a typed object's status struct even when empty (`"status": {}`):
    # clients read job.status.succeeded without a None check.
    created = batch.create_namespaced_job(ns, job("j1"))
    assert created.status is not None, "create answer without status"
    equal(created.status.succeeded, None, "succeeded of a new Job")
    deployment = apps.create_namespaced_deployment(ns, client.V1Deployment(
        metadata=client.V1ObjectMeta(name="d1"),
        spec=client.V1DeploymentSpec(
            selector=client.V1LabelSelector(match_labels={"app": "d1"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "d1"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="x")])))))
    assert deployment.status is not None, "Deployment create answer without status"
    deployment.metadata.labels = {"x": "y"}
    replaced = apps.replace_namespaced_deployment("d1", ns, deployment)
    assert replaced.status is not None, "update answer without status"
    status, body = raw(f"/apis/batch/v1/namespaces/{ns}/jobs/j1")
    assert "status" in body, "GET of a Job without status"


def custom_resource_crud():
    widget = {"apiVersion": "example.com/v1", "kind": "Widget",
              "metadata": {"name": "w1"}, "spec": {"mode": "fast"}}
    created = custom.create_namespaced_custom_object("example.com", "v1", ns, "widgets", widget)
    equal((created["spec"]["mode"], created["spec"]["replicas"]), ("fast", 1), "defaulted spec")
    assert "status" not in created, "a custom resource has no status until written"
    created["spec"]["mode"] = "slow"
    replaced = custom.replace_namespaced_custom_object("example.com", "v1", ns, "widgets",
                                                       "w1", created)
    equal(replaced["spec"]["mode"], "slow", "replaced mode")
    listed = custom.list_namespaced_custom_object("example.com", "v1", ns, "widgets")
    # A custom resource list is unstructured: its items keep kind and apiVersion.
    equal([(i["kind"], i["apiVersion"]) for i in listed["items"]],
          [("Widget", "example.com/v1")], "custom list items")
    status, body = failure(custom.create_namespaced_custom_object, "example.com", "v1", ns,
                           "widgets", {**widget, "metadata": {"name": "w2"},
                                       "spec": {"mode": "medium"}})
    equal((status, body["reason"]), (422, "Invalid"), "enum violation")
    custom.delete_namespaced_custom_object("example.com", "v1", ns, "widgets", "w1")


def typed_list_items_have_no_kind():
    core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="k")))
    status, body = raw(f"/api/v1/namespaces/{ns}/configmaps")
    equal((body["kind"], body["apiVersion"]), ("ConfigMapList", "v1"), "list kind")
    for item in body["items"]:
        equal(("kind" in item, "apiVersion" in item), (False, False), "typed list item")


def dry_run():
    cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="dry"))
    answered = core.create_namespaced_config_map(ns, cm, dry_run="All")
    equal(answered.metadata.name, "dry", "dry-run answer")
    equal(answered.metadata.resource_version, None, "dry-run resourceVersion")
    failure(core.read_namespaced_config_map, "dry", ns)
    status, body = failure(core.create_namespaced_config_map, ns, cm, dry_run="Bogus")
    # ValidateCreateOptions (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation).
    equal((status, body["reason"]), (422, "Invalid"), "invalid dryRun")
    equal(body["details"]["causes"], [{"reason": "FieldValueNotSupported",
                                       "message": 'Unsupported value: []string{"Bogus"}: supported values: "All"',
                                       "field": "dryRun"}], "invalid dryRun causes")


def pagination():
    for i in range(5):
        core.create_namespaced_config_map(ns, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name=f"page-{i}", labels={"page": "yes"})))
    names, token, first = [], None, None
    while True:
        page = core.list_namespaced_config_map(ns, limit=2, _continue=token,
                                               label_selector="page=yes")
        names += [i.metadata.name for i in page.items]
        first = first or page
        token = page.metadata._continue
        if not token:
            break
    equal(names, [f"page-{i}" for i in range(5)], "paged names")
    # The storage cannot count what a selector would keep: no remainingItemCount with one
    # (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go, GetList).
    equal(first.metadata.remaining_item_count, None, "remainingItemCount with a selector")
    whole = core.list_namespaced_config_map(ns, limit=2)
    assert whole.metadata.remaining_item_count is not None, "remainingItemCount without selector"
    fields = core.list_namespaced_config_map(ns, limit=2, field_selector="metadata.name!=x")
    equal(fields.metadata.remaining_item_count, None, "remainingItemCount with a field selector")


def times():
    # metav1.Time marshals whole seconds (RFC3339), MicroTime six fractional digits
    # (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go, micro_time.go).
    cronjob = batch.create_namespaced_cron_job(ns, client.V1CronJob(
        metadata=client.V1ObjectMeta(name="cj"),
        spec=client.V1CronJobSpec(schedule="0 0 * * *", job_template=client.V1JobTemplateSpec(
            spec=job("x").spec))))
    batch.patch_namespaced_cron_job_status("cj", ns, {"status": {
        "lastScheduleTime": "2024-01-01T00:00:00.5Z",
        "lastSuccessfulTime": "2024-01-01T01:00:01.123456+01:00"}})
    status, raw_body = raw(f"/apis/batch/v1/namespaces/{ns}/cronjobs/cj")
    equal((raw_body["status"]["lastScheduleTime"], raw_body["status"]["lastSuccessfulTime"]),
          ("2024-01-01T00:00:00Z", "2024-01-01T00:00:01Z"), "metav1.Time")
    lease = client.V1Lease(metadata=client.V1ObjectMeta(name="t"), spec=client.V1LeaseSpec(
        holder_identity="a", renew_time="2024-01-01T00:00:00.5Z"))
    client.CoordinationV1Api(api).create_namespaced_lease(ns, lease)
    status, raw_body = raw(f"/apis/coordination.k8s.io/v1/namespaces/{ns}/leases/t")
    equal(raw_body["spec"]["renewTime"], "2024-01-01T00:00:00.500000Z", "MicroTime")


def defaults():
    # SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort (pkg/apis/networking/v1/defaults.go).
    policy = networking.create_namespaced_network_policy(ns, client.V1NetworkPolicy(
        metadata=client.V1ObjectMeta(name="np"),
        spec=client.V1NetworkPolicySpec(pod_selector=client.V1LabelSelector(), ingress=[
            client.V1NetworkPolicyIngressRule(ports=[client.V1NetworkPolicyPort(port=80)])])))
    equal(policy.spec.policy_types, ["Ingress"], "policyTypes")
    equal(policy.spec.ingress[0].ports[0].protocol, "TCP", "port protocol")
    egress = networking.create_namespaced_network_policy(ns, client.V1NetworkPolicy(
        metadata=client.V1ObjectMeta(name="np2"),
        spec=client.V1NetworkPolicySpec(pod_selector=client.V1LabelSelector(),
                                        egress=[client.V1NetworkPolicyEgressRule()])))
    equal(egress.spec.policy_types, ["Ingress", "Egress"], "policyTypes with egress")
    # SetDefaults_PersistentVolumeClaim (pkg/apis/core/v1/defaults.go).
    claim = core.create_namespaced_persistent_volume_claim(ns, client.V1PersistentVolumeClaim(
        metadata=client.V1ObjectMeta(name="pvc"),
        spec=client.V1PersistentVolumeClaimSpec(
            access_modes=["ReadWriteOnce"],
            resources=client.V1ResourceRequirements(requests={"storage": "1Gi"}))))
    equal(claim.status.phase, "Pending", "PVC phase")


def sizes_and_encodings():
    big = "x" * (1024 * 1024 + 1)
    status, body = failure(core.create_namespaced_config_map, ns, client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="big"), data={"a": big}))
    # ValidateConfigMap and ValidateSecret: the total size is at most 1 MiB
    # (pkg/apis/core/validation/validation.go).
    equal((status, body["reason"]), (422, "Invalid"), "big ConfigMap")
    equal(body["details"]["causes"][0]["field"], "[]", "big ConfigMap field")
    status, body = failure(core.create_namespaced_secret, ns, client.V1Secret(
        metadata=client.V1ObjectMeta(name="big"),
        data={"a": base64.b64encode(big.encode()).decode()}))
    equal((status, body["reason"]), (422, "Invalid"), "big Secret")
    # Secret.data is []byte: Go's decoder refuses what is not base64.
    status, body = failure(raw, f"/api/v1/namespaces/{ns}/secrets", "POST", {
        "metadata": {"name": "b64"}, "data": {"a": "not base64!"}})
    equal((status, body["message"]), (400, 'Secret in version "v1" cannot be handled as a Secret: '
                                           "illegal base64 data at input byte 3"), "Secret data")


def field_selectors():
    status, body = failure(core.list_namespaced_pod, ns, field_selector="spec.foo=b")
    # Pod's own field label conversion (pkg/apis/core/v1/conversion.go).
    equal((status, body["message"]), (400, "field label not supported: spec.foo"), "pods")
    status, body = failure(core.list_namespaced_config_map, ns, field_selector="spec.foo=b")
    # DefaultMetaV1FieldSelectorConversion (staging/src/k8s.io/apimachinery/pkg/runtime/conversion.go).
    equal((status, body["message"]), (400, '"spec.foo" is not a known field selector: only '
                                           '"metadata.name", "metadata.namespace"'), "configmaps")


def version():
    info = client.VersionApi(api).get_code()
    equal(info.major, "1", "major")
    status, body = raw("/version/")
    equal((status, body["gitVersion"]), (200, info.git_version), "/version/")


run([configmap_crud, create_answers_carry_status, custom_resource_crud,
     typed_list_items_have_no_kind, dry_run, pagination, times, defaults, sizes_and_encodings,
     field_selectors, version])
