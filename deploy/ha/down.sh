#!/usr/bin/env bash
# Stops what deploy/ha/up.sh started (by the pid files in HA_DIR, default .ha in the checkout) and, with --purge,
# removes HA_DIR with its data. The pgkube instances and HAProxy go first, then each Patroni (which stops its
# PostgreSQL), then etcd.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${HA_DIR:-$(cd "$here/../.." && pwd)/.ha}"
stop() {
  local file="$dir/$1.pid" pid
  [ -f "$file" ] || return 0
  pid="$(cat "$file")"
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
  fi
  rm -f "$file"
}
for name in pgkube-1 pgkube-2 pgkube-3 haproxy patroni-node1 patroni-node2 patroni-node3; do stop "$name"; done
# a PostgreSQL whose Patroni was killed outright keeps running: stop it by its data folder
for data in "$dir"/node*/; do
  [ -f "$data/postmaster.pid" ] && kill -9 "$(head -1 "$data/postmaster.pid")" 2>/dev/null
done
stop etcd
[ "${1:-}" = "--purge" ] && rm -rf "$dir"
exit 0
