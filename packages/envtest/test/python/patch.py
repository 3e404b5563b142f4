"""The three patch types through the typed client and server-side apply through the dynamic
client (DynamicClient.server_side_apply), through the official Python client."""
import json

from harness import NAMESPACE, api_client, equal, failure, run
from kubernetes import client, dynamic

api = api_client()
core = client.CoreV1Api(api)
apps = client.AppsV1Api(api)
# The typed client sends a dict as a strategic merge patch and a list as a JSON patch; a merge
# patch needs the content type set (a default header wins over the generated one).
merging = client.CoreV1Api(api_client(**{"Content-Type": "application/merge-patch+json"}))
dyn = dynamic.DynamicClient(api_client())
ns = NAMESPACE


def apply(resource, manifest, **kwargs):
    """DynamicClient.server_side_apply. Debian's client (22.6) sends only text bodies under
    `application/apply-patch+yaml`, so the configuration goes as JSON text (YAML reads it), with
    the name and namespace given beside it."""
    return resource.server_side_apply(body=json.dumps(manifest), name=manifest["metadata"]["name"],
                                      namespace=manifest["metadata"]["namespace"], **kwargs)


def json_patch():
    core.create_namespaced_config_map(ns, client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="jp"), data={"a": "1", "b": "2"}))
    patched = core.patch_namespaced_config_map("jp", ns, [
        {"op": "test", "path": "/data/a", "value": "1"},
        {"op": "replace", "path": "/data/a", "value": "10"},
        {"op": "remove", "path": "/data/b"},
        {"op": "add", "path": "/metadata/labels", "value": {"p": "json"}}])
    equal((patched.data, patched.metadata.labels), ({"a": "10"}, {"p": "json"}), "JSON patch")
    status, body = failure(core.patch_namespaced_config_map, "jp", ns,
                           [{"op": "test", "path": "/data/a", "value": "1"}])
    equal((status, body["reason"]), (422, "Invalid"), "failed JSON patch test")


def merge_patch():
    core.create_namespaced_config_map(ns, client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="mp"), data={"a": "1", "b": "2"}))
    patched = merging.patch_namespaced_config_map("mp", ns, {"data": {"a": None, "c": "3"}})
    equal(patched.data, {"b": "2", "c": "3"}, "merge patch")


def deployment(name, containers):
    return client.V1Deployment(
        metadata=client.V1ObjectMeta(name=name),
        spec=client.V1DeploymentSpec(
            selector=client.V1LabelSelector(match_labels={"app": name}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": name}),
                spec=client.V1PodSpec(containers=containers))))


def strategic_merge_patch():
    apps.create_namespaced_deployment(ns, deployment("smp", [
        client.V1Container(name="app", image="app:1"),
        client.V1Container(name="sidecar", image="side:1")]))
    # Containers merge by name: the sidecar keeps its image, the app gains an env entry.
    patched = apps.patch_namespaced_deployment("smp", ns, {"spec": {"template": {"spec": {
        "containers": [{"name": "app", "env": [{"name": "X", "value": "1"}]}]}}}})
    containers = patched.spec.template.spec.containers
    equal([(c.name, c.image, [e.name for e in c.env or []]) for c in containers],
          [("app", "app:1", ["X"]), ("sidecar", "side:1", [])], "strategic merge")
    deleted = apps.patch_namespaced_deployment("smp", ns, {"spec": {"template": {"spec": {
        "containers": [{"name": "sidecar", "$patch": "delete"}]}}}})
    equal([c.name for c in deleted.spec.template.spec.containers], ["app"], "$patch: delete")


def server_side_apply():
    configmaps = dyn.resources.get(api_version="v1", kind="ConfigMap")
    manifest = {"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "ssa", "namespace": ns}, "data": {"a": "1"}}
    created = apply(configmaps, manifest, field_manager="py-a")
    equal(created.data.a, "1", "applied value")
    entry = created.to_dict()["metadata"]["managedFields"][0]
    equal((entry["manager"], entry["operation"], entry["fieldsV1"]),
          ("py-a", "Apply", {"f:data": {"f:a": {}}}), "managedFields")
    again = apply(configmaps, manifest, field_manager="py-a")
    equal(again.metadata.resourceVersion, created.metadata.resourceVersion, "no-op re-apply")
    other = {**manifest, "data": {"a": "2"}}
    status, body = failure(apply, configmaps, other, field_manager="py-b")
    equal((status, body["reason"], body["message"]),
          (409, "Conflict", 'Apply failed with 1 conflict: conflict with "py-a": .data.a'),
          "conflict")
    forced = apply(configmaps, other, field_manager="py-b", force_conflicts=True)
    equal((forced.data.a, [e.manager for e in forced.metadata.managedFields]),
          ("2", ["py-b"]), "forced apply takes ownership")


def apply_custom_resource():
    widgets = dyn.resources.get(api_version="example.com/v1", kind="Widget")
    manifest = {"apiVersion": "example.com/v1", "kind": "Widget",
                "metadata": {"name": "applied", "namespace": ns},
                "spec": {"mode": "fast", "tags": ["a", "b"]}}
    applied = apply(widgets, manifest, field_manager="py")
    equal((applied.spec.mode, applied.spec.replicas), ("fast", 1), "applied widget")
    fields = applied.to_dict()["metadata"]["managedFields"][0]["fieldsV1"]
    equal(fields, {"f:spec": {"f:mode": {}, "f:tags": {"v:\"a\"": {}, "v:\"b\"": {}}}},
          "a set owned item by item")


def apply_undeclared_field():
    # structured-merge-diff refuses what the schema does not declare; kube answers its error
    # (no Status) as a 500 with the field manager's text.
    configmaps = dyn.resources.get(api_version="v1", kind="ConfigMap")
    status, body = failure(apply, configmaps, {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "bogus", "namespace": ns}, "bogus": 1}, field_manager="py")
    equal((status, body["message"]), (500, "failed to create typed patch object "
                                           f"({ns}/bogus; /v1, Kind=ConfigMap): "
                                           ".bogus: field not declared in schema"), "ConfigMap")
    widgets = dyn.resources.get(api_version="example.com/v1", kind="Widget")
    status, body = failure(apply, widgets, {
        "apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "bogus", "namespace": ns},
        "spec": {"mode": "fast", "bogus": 1}}, field_manager="py")
    equal((status, body["message"]), (500, "failed to create typed patch object "
                                           f"({ns}/bogus; example.com/v1, Kind=Widget): "
                                           ".spec.bogus: field not declared in schema"), "Widget")


run([json_patch, merge_patch, strategic_merge_patch, server_side_apply, apply_custom_resource,
     apply_undeclared_field])
