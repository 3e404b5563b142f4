"""The status and scale subresources through the official Python client, for a built-in and a
custom resource, and the hostname and subdomain a StatefulSet gives its pods."""
import time

from harness import NAMESPACE, api_client, equal, run
from kubernetes import client

api = api_client()
apps = client.AppsV1Api(api)
core = client.CoreV1Api(api)
custom = client.CustomObjectsApi(api)
ns = NAMESPACE


def deployment_scale_and_status():
    apps.create_namespaced_deployment(ns, client.V1Deployment(
        metadata=client.V1ObjectMeta(name="web"),
        spec=client.V1DeploymentSpec(
            replicas=1,
            selector=client.V1LabelSelector(match_labels={"app": "web"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "web"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="x")])))))
    scale = apps.read_namespaced_deployment_scale("web", ns)
    equal((scale.kind, scale.spec.replicas), ("Scale", 1), "scale")
    scale.spec.replicas = 3
    # The simulated controller writes the status meanwhile: an unconditional write (no
    # resourceVersion) is not refused as stale.
    scale.metadata.resource_version = None
    apps.replace_namespaced_deployment_scale("web", ns, scale)
    equal(apps.read_namespaced_deployment("web", ns).spec.replicas, 3, "replicas after scale")
    patched = apps.patch_namespaced_deployment_scale("web", ns, {"spec": {"replicas": 2}})
    equal(patched.spec.replicas, 2, "patched scale")
    # A status write changes the status only (a Service: no controller writes its status).
    core.create_namespaced_service(ns, client.V1Service(
        metadata=client.V1ObjectMeta(name="lb"),
        spec=client.V1ServiceSpec(ports=[client.V1ServicePort(port=80)])))
    current = core.read_namespaced_service_status("lb", ns)
    current.spec.ports[0].port = 81
    current.status.load_balancer.ingress = [client.V1LoadBalancerIngress(ip="10.0.0.1")]
    written = core.replace_namespaced_service_status("lb", ns, current)
    equal((written.spec.ports[0].port, written.status.load_balancer.ingress[0].ip),
          (80, "10.0.0.1"), "status write")
    kept = core.patch_namespaced_service("lb", ns, {"status": {"loadBalancer": {}}})
    equal(kept.status.load_balancer.ingress[0].ip, "10.0.0.1", "main resource write")


def custom_resource_scale_and_status():
    custom.create_namespaced_custom_object("example.com", "v1", ns, "widgets", {
        "apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "sw"},
        "spec": {"mode": "fast", "replicas": 2}})
    status = custom.patch_namespaced_custom_object_status(
        "example.com", "v1", ns, "widgets", "sw",
        {"status": {"replicas": 2, "selector": "app=sw"}, "spec": {"replicas": 5}})
    equal((status["spec"]["replicas"], status["status"]["replicas"]), (2, 2), "status patch")
    scale = custom.get_namespaced_custom_object_scale("example.com", "v1", ns, "widgets", "sw")
    equal((scale["spec"]["replicas"], scale["status"]["replicas"], scale["status"]["selector"]),
          (2, 2, "app=sw"), "custom scale")
    custom.patch_namespaced_custom_object_scale("example.com", "v1", ns, "widgets", "sw",
                                                {"spec": {"replicas": 4}})
    widget = custom.get_namespaced_custom_object("example.com", "v1", ns, "widgets", "sw")
    equal(widget["spec"]["replicas"], 4, "replicas after the scale patch")


def statefulset_pod_identity():
    # initIdentity (pkg/controller/statefulset/stateful_set_utils.go): hostname and subdomain.
    apps.create_namespaced_stateful_set(ns, client.V1StatefulSet(
        metadata=client.V1ObjectMeta(name="db"),
        spec=client.V1StatefulSetSpec(
            service_name="db-headless", replicas=1,
            selector=client.V1LabelSelector(match_labels={"app": "db"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "db"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="x")])))))
    # The simulated controller creates the pod; bounded by attempts, not a tight clock.
    for _ in range(300):
        pods = core.list_namespaced_pod(ns, label_selector="app=db").items
        if pods:
            break
        time.sleep(0.1)
    equal([(p.metadata.name, p.spec.hostname, p.spec.subdomain) for p in pods],
          [("db-0", "db-0", "db-headless")], "StatefulSet pod identity")


run([deployment_scale_and_status, custom_resource_scale_and_status, statefulset_pod_identity])
