"""What every script of the Python client suite shares (python-client.test.ts drives them).

A script is a list of cases, each a function that drives the official Python client (Debian's
python3-kubernetes) against envtest and raises AssertionError when the server answers other than
kube-apiserver would. `run` calls them in order and prints one JSON document on stdout:
{case name: "ok" | the failure}, so one Python process covers a whole group of cases.
"""
import json
import sys
import traceback

from kubernetes import client, config
from kubernetes.client.rest import ApiException

KUBECONFIG = sys.argv[1] if len(sys.argv) > 1 else None
NAMESPACE = sys.argv[2] if len(sys.argv) > 2 else "default"


def api_client(**headers):
    """A client from the kubeconfig envtest wrote; `headers` are sent with every request."""
    configuration = client.Configuration()
    config.load_kube_config(config_file=KUBECONFIG, client_configuration=configuration)
    api = client.ApiClient(configuration)
    for name, value in headers.items():
        api.set_default_header(name, value)
    return api


def failure(call, *args, **kwargs):
    """The ApiException a call must raise: (HTTP status, decoded Status body)."""
    try:
        call(*args, **kwargs)
    except ApiException as e:
        return e.status, json.loads(e.body) if e.body else None
    raise AssertionError(f"{getattr(call, '__name__', call)} succeeded; an error was expected")


def equal(actual, expected, what=""):
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected!r}, got {actual!r}")


def run(cases):
    """Runs the cases in order in the script's own namespace (created here)."""
    try:
        client.CoreV1Api(api_client()).create_namespace(
            client.V1Namespace(metadata=client.V1ObjectMeta(name=NAMESPACE)))
    except ApiException as e:
        if e.status != 409:
            raise
    results = {}
    for case in cases:
        try:
            case()
            results[case.__name__] = "ok"
        except ApiException as e:
            results[case.__name__] = f"unexpected {e.status} {e.reason}: {e.body}"
        except Exception:
            results[case.__name__] = traceback.format_exc(limit=4)
    json.dump(results, sys.stdout)
