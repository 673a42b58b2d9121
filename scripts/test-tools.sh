#!/usr/bin/env bash
# The tools the test suite drives besides Node: kubectl 1.20 (the oldest supported client, into .tools/), protoc
# (decodes the server's protobuf with the project's definitions), HAProxy (the compose load balancer, for the
# topology test) and the Python Kubernetes client (its leader election, for the leader-election test), from Debian's
# packages. Each is fetched only when missing, so this is quick once they are there. With --faults, the tools of the
# fault suite (`npm run test:faults`) instead: the HA topology of deploy/ha (Patroni, etcd, HAProxy, PostgreSQL 15,
# tini).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
if [ "${1:-}" = "--faults" ]; then
  command -v patroni >/dev/null || missing+=(patroni)
  # Patroni's etcd3 store needs python3-etcd, a dependency that apt leaves out when python3-kubernetes (installed for
  # the leader-election test) already satisfies the package's "one of these stores" alternative
  /usr/bin/python3 -c 'import etcd' 2>/dev/null || missing+=(python3-etcd)
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v etcdctl >/dev/null || missing+=(etcd-client)
  command -v haproxy >/dev/null || missing+=(haproxy)
  command -v tini >/dev/null || missing+=(tini)
  command -v curl >/dev/null || missing+=(curl)
  [ -x /usr/lib/postgresql/15/bin/postgres ] || missing+=(postgresql-15)
else
  bash scripts/fetch-kubectl-1.20.sh >/dev/null
  command -v protoc >/dev/null || missing+=(protobuf-compiler)
  command -v haproxy >/dev/null || missing+=(haproxy)
  /usr/bin/python3 -c 'import kubernetes' 2>/dev/null || missing+=(python3-kubernetes)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "test tools missing: ${missing[*]} (install them with apt-get as root; the tests that need them will fail)" >&2
  exit 0
fi
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
