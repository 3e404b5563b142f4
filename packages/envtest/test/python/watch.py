"""Watch through the official Python client: resuming from a resourceVersion, the 410 Expired
path an informer relists on, and bookmarks before a watch's timeout. The driver forgot the watch
history (env.faults.expireHistory()) after the script's first phase: argv[3] names the phase."""
import json
import sys

from harness import NAMESPACE, api_client, equal, run
from kubernetes import client, watch
from kubernetes.client.rest import ApiException

core = client.CoreV1Api(api_client())
ns = NAMESPACE
PHASE = sys.argv[3]
STATE = sys.argv[4]  # a file the phases share: resourceVersions of the first phase


def events(resource_version, timeout=5, **kwargs):
    """The events of a watch from resource_version until `timeout` seconds pass."""
    seen = []
    for event in watch.Watch().stream(core.list_namespaced_config_map, ns,
                                      resource_version=resource_version,
                                      timeout_seconds=timeout, **kwargs):
        seen.append(event)
    return seen


def resume_from_resource_version():
    start = core.list_namespaced_config_map(ns).metadata.resource_version
    core.create_namespaced_config_map(ns, client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="w1"), data={"a": "1"}))
    middle = core.patch_namespaced_config_map("w1", ns, {"data": {"a": "2"}})
    core.delete_namespaced_config_map("w1", ns)
    # Bounded by the events: the stream stops at the third (timeout only if they never come).
    seen = []
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, ns, resource_version=start,
                          timeout_seconds=30):
        seen.append((event["type"], event["object"].metadata.name,
                     event["object"].data))
        if len(seen) == 3:
            w.stop()
    equal(seen, [("ADDED", "w1", {"a": "1"}), ("MODIFIED", "w1", {"a": "2"}),
                 ("DELETED", "w1", {"a": "2"})], "events from the list's resourceVersion")
    resumed = []
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, ns,
                          resource_version=middle.metadata.resource_version, timeout_seconds=30):
        resumed.append(event["type"])
        w.stop()
    equal(resumed, ["DELETED"], "events after the patch's resourceVersion")
    with open(STATE, "w") as f:
        json.dump({"old": start}, f)


def bookmark_before_timeout():
    # A bookmark 2 s before the deadline (cache_watcher.go nextBookmarkTime): an idle watch of
    # 3 s gets one after about 1 s.
    seen = events(None, timeout=3, allow_watch_bookmarks=True)
    kinds = [e["type"] for e in seen]
    assert "BOOKMARK" in kinds, f"no bookmark before the timeout: {kinds}"
    bookmark = next(e for e in seen if e["type"] == "BOOKMARK")["raw_object"]
    equal(bookmark["kind"], "ConfigMap", "bookmark kind")
    assert int(bookmark["metadata"]["resourceVersion"]) > 0, bookmark


def expired_after_compaction():
    with open(STATE) as f:
        old = json.load(f)["old"]
    # The history no longer reaches `old`: an ERROR event with 410 Expired, which the client
    # raises when it may not retry (timeout_seconds given).
    try:
        events(old, timeout=5)
        raise AssertionError("a watch from a forgotten resourceVersion streamed")
    except ApiException as e:
        equal(e.status, 410, "status of the expired watch")
        assert e.reason.startswith("Expired: too old resource version: "), e.reason
    # The informer's way out: relist and watch from the list's resourceVersion.
    listed = core.list_namespaced_config_map(ns)
    core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="w2")))
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, ns,
                          resource_version=listed.metadata.resource_version, timeout_seconds=30):
        equal((event["type"], event["object"].metadata.name), ("ADDED", "w2"), "after relist")
        w.stop()


if PHASE == "before":
    run([resume_from_resource_version, bookmark_before_timeout])
else:
    run([expired_after_compaction])
