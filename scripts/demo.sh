#!/usr/bin/env bash
# The main job on the embedded default: scaffold an AppCluster operator (the tutorial of seed 003),
# generate its manifests, and run it against the embedded Kubernetes API server, driven by kubectl.
# Usage: npm run demo [-- <target-dir>]   (default: a new temp folder, kept for you to explore)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:-$(mktemp -d -t opgen-demo-XXXXXX)}"
opgen() { node "$repo/bin/opgen.js" "$@"; }
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Building opgen"
(cd "$repo" && npm run build --silent)

step "opgen init (in $target/appcluster-operator)"
mkdir -p "$target/appcluster-operator"
cd "$target/appcluster-operator"
opgen init --domain my.domain

step "opgen create api --group demo --version v1 --kind AppCluster"
opgen create api --group demo --version v1 --kind AppCluster

step "The AppCluster tutorial's types and controller (examples/appcluster-operator) over the scaffold"
cp -r "$repo/examples/appcluster-operator/src" "$repo/examples/appcluster-operator/test" "$repo/examples/appcluster-operator/config" .

step "opgen manifests"
opgen manifests
ls config/crd/bases config/rbac/role.yaml

step "opgen dev: the operator on the embedded API server"
log="$target/dev.log"
# Started directly (not through the opgen function) so that $! is the node process to signal.
node "$repo/bin/opgen.js" dev --kubeconfig envtest.kubeconfig >"$log" 2>&1 &
dev=$!
cleanup() { kill -TERM "$dev" 2>/dev/null || true; wait "$dev" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q "envtest ready" "$log" && break
  kill -0 "$dev" 2>/dev/null || { cat "$log"; echo "opgen dev exited early" >&2; exit 1; }
  sleep 0.2
done
grep -q "envtest ready" "$log" || { cat "$log"; echo "opgen dev did not become ready" >&2; exit 1; }
grep "envtest ready" "$log"
export KUBECONFIG="$PWD/envtest.kubeconfig"

step "kubectl apply -k config/samples"
kubectl apply -k config/samples
kubectl wait --for=jsonpath='{.status.ready}'=2 appclusters/appcluster-sample --timeout=60s
kubectl get appclusters
kubectl get pods -l app=appcluster-sample

step "Self-healing: delete a pod, the operator replaces it"
kubectl delete "$(kubectl get pods -l app=appcluster-sample -o name | head -n 1)" --wait=false
sleep 1
kubectl get pods -l app=appcluster-sample

step "Operator log"
tail -n 20 "$log"
cleanup
trap - EXIT
printf '\nDone. The project is in %s/appcluster-operator\n' "$target"
