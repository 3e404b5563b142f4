#!/usr/bin/env bash
# The main job on the embedded default: scaffold an AppCluster operator (the tutorial of seed 003)
# with a second API version and its webhooks (defaulting, validation, conversion), generate its
# manifests, and run it against the embedded Kubernetes API server, driven by kubectl.
# Usage: npm run demo [-- <target-dir>]   (default: a new temp folder, kept for you to explore)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:-$(mktemp -d -t opgen-demo-XXXXXX)}"
opgen() { node "$repo/bin/opgen.js" "$@"; }
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
# Fails the demo unless "$1" (what kubectl printed) equals "$2".
expect() { [ "$1" = "$2" ] || { echo "expected '$2', got '$1'" >&2; exit 1; }; }

step "Building opgen"
(cd "$repo" && npm run build --silent)

step "opgen init (in $target/appcluster-operator)"
mkdir -p "$target/appcluster-operator"
cd "$target/appcluster-operator"
opgen init --domain my.domain

step "opgen create api --group demo --version v1 --kind AppCluster"
opgen create api --group demo --version v1 --kind AppCluster

step "opgen create api --group demo --version v2 --kind AppCluster --controller=false"
opgen create api --group demo --version v2 --kind AppCluster --controller=false

step "opgen create webhook --group demo --version v1 --kind AppCluster --defaulting --programmatic-validation"
opgen create webhook --group demo --version v1 --kind AppCluster --defaulting --programmatic-validation

step "opgen create webhook --group demo --version v1 --kind AppCluster --conversion --spoke v2"
opgen create webhook --group demo --version v1 --kind AppCluster --conversion --spoke v2

step "The AppCluster tutorial's types, controller, webhooks and conversion (examples/appcluster-operator) over the scaffold"
cp -r "$repo/examples/appcluster-operator/src" "$repo/examples/appcluster-operator/test" "$repo/examples/appcluster-operator/config" .

step "opgen manifests"
opgen manifests
ls config/crd/bases config/rbac/role.yaml config/webhook/manifests.yaml

step "opgen dev: the operator on the embedded API server"
log="$target/dev.log"
# Started directly (not through the opgen function) so that $! is the node process to signal.
node "$repo/bin/opgen.js" dev --kubeconfig envtest.kubeconfig >"$log" 2>&1 &
dev=$!
cleanup() { kill -TERM "$dev" 2>/dev/null || true; wait "$dev" 2>/dev/null || true; }
trap cleanup EXIT
# The API server calls the webhooks once the operator serves them (opgen dev prints "webhooks ready").
for _ in $(seq 1 300); do
  grep -q "webhooks ready" "$log" && break
  kill -0 "$dev" 2>/dev/null || { cat "$log"; echo "opgen dev exited early" >&2; exit 1; }
  sleep 0.2
done
grep -q "webhooks ready" "$log" || { cat "$log"; echo "opgen dev did not become ready" >&2; exit 1; }
grep "envtest ready\|webhooks ready" "$log"
export KUBECONFIG="$PWD/envtest.kubeconfig"

step "Validating webhook: an AppCluster of size 20 is denied, naming spec.size"
too_big='{"apiVersion":"demo.my.domain/v1","kind":"AppCluster","metadata":{"name":"too-big"},"spec":{"size":20}}'
if denial="$(kubectl apply -f - <<<"$too_big" 2>&1)"; then
  echo "$denial"; echo "the size-20 AppCluster was admitted" >&2; exit 1
fi
echo "$denial"
grep -q "spec.size" <<<"$denial" || { echo "the denial does not name spec.size" >&2; exit 1; }

step "kubectl apply -k config/samples (v1 with size: 2, v2 with replicas: 3)"
kubectl apply -k config/samples
kubectl wait --for=jsonpath='{.status.ready}'=2 appclusters.v1.demo.my.domain/appcluster-sample --timeout=60s
kubectl wait --for=jsonpath='{.status.ready}'=3 appclusters.v1.demo.my.domain/appcluster-sample-v2 --timeout=60s
kubectl get appclusters.v1.demo.my.domain --show-labels
kubectl get pods -l app=appcluster-sample

step "Defaulting webhook: the size-2 AppCluster got tier: web (and was reconciled, above)"
tier="$(kubectl get appclusters.v1.demo.my.domain appcluster-sample -o jsonpath='{.metadata.labels.tier}')"
echo "tier: $tier"
expect "$tier" web

step "Conversion webhook: v2 replicas: 3 reads as v1 size: 3, and v1 objects read as v2"
kubectl get appclusters.v2.demo.my.domain
size="$(kubectl get appclusters.v1.demo.my.domain appcluster-sample-v2 -o jsonpath='{.apiVersion} size={.spec.size}')"
echo "$size"
expect "$size" "demo.my.domain/v1 size=3"
replicas="$(kubectl get appclusters.v2.demo.my.domain appcluster-sample -o jsonpath='{.apiVersion} replicas={.spec.replicas}')"
echo "$replicas"
expect "$replicas" "demo.my.domain/v2 replicas=2"

step "Self-healing: delete a pod, the operator replaces it"
kubectl delete "$(kubectl get pods -l app=appcluster-sample -o name | head -n 1)" --wait=false
sleep 1
kubectl get pods -l app=appcluster-sample

step "Operator log"
tail -n 20 "$log"
# Normal events (a conflict on a stale read, a denied object, a deleted pod) are not errors: the
# operator reports them without ERROR lines or stack traces.
if grep -qE $'\tERROR\t|stacktrace|^ +at ' "$log"; then
  grep -nE $'\tERROR\t|stacktrace|^ +at ' "$log" | head -n 5 >&2
  echo "the operator logged an error or a stack trace for a normal event" >&2
  exit 1
fi

step "Ctrl-C: opgen dev drains the operator, stops envtest and exits 0"
trap - EXIT
kill -INT "$dev"
status=0
wait "$dev" || status=$?
tail -n 2 "$log"
expect "exit $status" "exit 0"
printf '\nDone. The project is in %s/appcluster-operator\n' "$target"
