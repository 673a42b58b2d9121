#!/usr/bin/env bash
# The tools the test suite drives besides Node: kubectl 1.20 (the oldest supported client, into .tools/), protoc
# (decodes the server's protobuf with the project's definitions), HAProxy (the compose load balancer, for the
# topology test) and the Python Kubernetes client (its leader election, for the leader-election test), from Debian's
# packages. Each is fetched only when missing, so this is quick once they are there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/fetch-kubectl-1.20.sh >/dev/null
missing=()
command -v protoc >/dev/null || missing+=(protobuf-compiler)
command -v haproxy >/dev/null || missing+=(haproxy)
/usr/bin/python3 -c 'import kubernetes' 2>/dev/null || missing+=(python3-kubernetes)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "test tools missing: ${missing[*]} (install them with apt-get as root; the tests that need them will fail)" >&2
  exit 0
fi
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
