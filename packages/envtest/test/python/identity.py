"""RBAC, impersonation, access reviews, token requests, leases and a namespace held by a
finalizer, through the official Python client."""
import time

from harness import KUBECONFIG, NAMESPACE, api_client, equal, failure, run
from kubernetes import client, config
from kubernetes.client.rest import ApiException

api = api_client()
core = client.CoreV1Api(api)
rbac = client.RbacAuthorizationV1Api(api)
coordination = client.CoordinationV1Api(api)
ns = NAMESPACE


def as_user(name):
    return api_client(**{"Impersonate-User": name})


def with_token(token):
    """A client of the same server authenticating with `token` instead of the kubeconfig's."""
    configuration = client.Configuration()
    config.load_kube_config(config_file=KUBECONFIG, client_configuration=configuration)
    configuration.api_key = {"authorization": f"Bearer {token}"}
    return client.ApiClient(configuration)


def rbac_and_impersonation():
    alice = client.CoreV1Api(as_user("alice"))
    status, body = failure(alice.list_namespaced_config_map, ns)
    equal((status, body["reason"], body["message"]), (403, "Forbidden",
          f'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group '
          f'"" in the namespace "{ns}"'), "before the binding")
    rbac.create_namespaced_role(ns, client.V1Role(
        metadata=client.V1ObjectMeta(name="cm-reader"),
        rules=[client.V1PolicyRule(api_groups=[""], resources=["configmaps"],
                                   verbs=["get", "list"])]))
    rbac.create_namespaced_role_binding(ns, client.V1RoleBinding(
        metadata=client.V1ObjectMeta(name="alice-reads"),
        role_ref=client.V1RoleRef(api_group="rbac.authorization.k8s.io", kind="Role",
                                  name="cm-reader"),
        subjects=[client.V1Subject(kind="User", name="alice",
                                       api_group="rbac.authorization.k8s.io")]))
    alice.list_namespaced_config_map(ns)
    status, body = failure(alice.create_namespaced_config_map, ns,
                           client.V1ConfigMap(metadata=client.V1ObjectMeta(name="no")))
    equal(status, 403, "create beyond the role")


def access_reviews():
    review = client.AuthorizationV1Api(as_user("alice")).create_self_subject_access_review(
        client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(
            resource_attributes=client.V1ResourceAttributes(
                namespace=ns, verb="list", resource="configmaps"))))
    # The authorizer names what allowed it (plugin/pkg/auth/authorizer/rbac/rbac.go).
    equal((review.status.allowed, review.status.reason), (True,
          f'RBAC: allowed by RoleBinding "alice-reads/{ns}" of Role "cm-reader" to User "alice"'),
          "SelfSubjectAccessReview")
    denied = client.AuthorizationV1Api(api).create_subject_access_review(
        client.V1SubjectAccessReview(spec=client.V1SubjectAccessReviewSpec(
            user="alice", resource_attributes=client.V1ResourceAttributes(
                namespace=ns, verb="delete", resource="configmaps"))))
    equal(denied.status.allowed, False, "SubjectAccessReview")
    rules = client.AuthorizationV1Api(as_user("alice")).create_self_subject_rules_review(
        client.V1SelfSubjectRulesReview(spec=client.V1SelfSubjectRulesReviewSpec(namespace=ns)))
    assert any(r.resources == ["configmaps"] and r.verbs == ["get", "list"]
               for r in rules.status.resource_rules), rules.status.resource_rules


def token_requests():
    core.create_namespaced_service_account(ns, client.V1ServiceAccount(
        metadata=client.V1ObjectMeta(name="robot")))
    request = core.create_namespaced_service_account_token("robot", ns, client.AuthenticationV1TokenRequest(
        spec=client.V1TokenRequestSpec(audiences=[], expiration_seconds=3600)))
    token = request.status.token
    assert token.count(".") == 2, "a JWT"
    review = client.AuthenticationV1Api(api).create_token_review(client.V1TokenReview(
        spec=client.V1TokenReviewSpec(token=token)))
    equal((review.status.authenticated, review.status.user.username), (True,
          f"system:serviceaccount:{ns}:robot"), "TokenReview")
    robot = client.CoreV1Api(with_token(token))
    status, body = failure(robot.list_namespaced_pod, ns)
    equal(status, 403, "the robot has no role")
    equal(client.VersionApi(with_token(token)).get_code().major, "1", "/version as the robot")


def leases():
    lease = coordination.create_namespaced_lease(ns, client.V1Lease(
        metadata=client.V1ObjectMeta(name="leader"),
        spec=client.V1LeaseSpec(holder_identity="a", lease_duration_seconds=15,
                                acquire_time="2024-01-01T00:00:00Z",
                                renew_time="2024-01-01T00:00:00.25Z")))
    equal(lease.spec.holder_identity, "a", "holder")
    lease.spec.renew_time = "2024-01-01T00:00:05.5Z"
    renewed = coordination.replace_namespaced_lease("leader", ns, lease)
    # The stale copy loses: a second candidate cannot take over from an old resourceVersion.
    lease.spec.holder_identity = "b"
    status, body = failure(coordination.replace_namespaced_lease, "leader", ns, lease)
    equal((status, body["reason"]), (409, "Conflict"), "stale lease update")
    equal((renewed.spec.holder_identity, renewed.spec.renew_time.microsecond), ("a", 500000),
          "renewed lease")


def namespace_held_by_finalizer():
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=f"{ns}-held")))
    core.create_namespaced_config_map(f"{ns}-held", client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="held", finalizers=["example.com/hold"])))
    core.delete_namespace(f"{ns}-held")
    # The namespace controller reports what holds it; bounded by attempts.
    condition = None
    for _ in range(300):
        current = core.read_namespace(f"{ns}-held")
        condition = next((c for c in current.status.conditions or []
                          if c.type == "NamespaceFinalizersRemaining"), None)
        if condition and condition.status == "True":
            break
        time.sleep(0.1)
    equal((current.status.phase, condition.status, condition.reason, condition.message),
          ("Terminating", "True", "SomeFinalizersRemain",
           "Some content in the namespace has finalizers remaining: example.com/hold in 1 "
           "resource instances"), "NamespaceFinalizersRemaining")
    core.patch_namespaced_config_map("held", f"{ns}-held", {"metadata": {"finalizers": None}})
    for _ in range(300):
        try:
            core.read_namespace(f"{ns}-held")
        except ApiException as e:
            if e.status == 404:
                return
        time.sleep(0.1)
    raise AssertionError("the namespace stayed after its content's finalizer was removed")


run([rbac_and_impersonation, access_reviews, token_requests, leases, namespace_held_by_finalizer])
