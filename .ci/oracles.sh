#!/usr/bin/env bash
# Installs what the oracle tests build against (test/helpers/go-oracle.ts): Debian's Go toolchain
# and Go libraries' sources, which the tests compile offline in GOPATH mode; and the official
# Python client the envtest suite drives (packages/envtest/test/python-client.test.ts). Idempotent: installs
# only the packages missing, and only as root with apt-get; otherwise it names what is missing
# (the tests then skip, or fail under OPGEN_REQUIRE_ORACLES=1). Another oracle adds its packages
# to PACKAGES.
set -euo pipefail

PACKAGES=(
  golang-1.19-go           # the toolchain: /usr/lib/go-1.19/bin/go
  golang-gopkg-yaml.v2-dev # gopkg.in/yaml.v2, the YAML writer's oracle (test/oracles/yaml)
  golang-k8s-sigs-yaml-dev # sigs.k8s.io/yaml, controller-gen's way into yaml.v2
  golang-k8s-sigs-structured-merge-diff-dev # SMD v4.1.2 sources, the SSA oracle (test/oracles/ssa)
  python3-kubernetes       # the official Python client, envtest's third real client
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "oracles: ${PACKAGES[*]} installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "oracles: missing ${missing[*]}; as root: apt-get install -y ${missing[*]}" >&2
  exit 0
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
