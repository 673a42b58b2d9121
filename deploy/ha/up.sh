#!/usr/bin/env bash
# Brings the HA topology up as processes on this machine (no containers): etcd (Patroni's consensus store), three
# PostgreSQL 15 nodes each run by its Patroni (one primary, one synchronous standby, one more standby), HAProxy
# routing a primary port and a replica port by Patroni's REST API, and three pgkube instances over the primary port
# behind HAProxy's API port. Debian's packages: patroni etcd-server etcd-client haproxy postgresql-15
# tini.
#
#   deploy/ha/up.sh            # then: kubectl --server http://127.0.0.1:15432 get deployments
#   deploy/ha/down.sh
#
# Settings (environment):
#   HA_DIR         where data, rendered configuration, logs and pid files go (default .ha in the checkout)
#   HA_PORT_BASE   the first of the ports it takes (default 15400); the layout is printed at the end
#   HA_INSTANCES   pgkube instances to start from dist/ (default 3; 0 starts the database tier and HAProxy only)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${HA_DIR:-$root/.ha}"
base="${HA_PORT_BASE:-15400}"
instances="${HA_INSTANCES:-3}"

etcd_port=$((base)) etcd_peer=$((base + 1))
primary_port=$((base + 30)) replica_port=$((base + 31)) api_port=$((base + 32)) streaming_port=$((base + 33))
pg_port() { echo $((base + 10 + $1)); }
rest_port() { echo $((base + 20 + $1)); }
pgkube_port() { echo $((base + 40 + $1)); }

# Runs a command in the background with its pid in $dir/NAME.pid and its output in $dir/NAME.log.
background() {
  local name="$1"
  shift
  "$@" >"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}
until_true() {
  local what="$1" seconds="$2"
  shift 2
  for _ in $(seq $((seconds * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "up.sh: $what did not happen within ${seconds}s (logs in $dir)" >&2
  exit 1
}

mkdir -p "$dir"
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"

# etcd: one member here; a production cluster runs three (or five) on separate hosts, so that losing one keeps a quorum.
background etcd etcd --name ha --data-dir "$dir/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "ha=http://127.0.0.1:$etcd_peer" --initial-cluster-state new
# its own etcd: one left over from an earlier run on these ports would answer too (this one then fails to bind)
until_true "etcd answering" 30 bash -c "kill -0 $(cat "$dir/etcd.pid") && etcdctl --endpoints 127.0.0.1:$etcd_port endpoint health"

export HA_PRIMARY_LISTEN="127.0.0.1:$primary_port" HA_REPLICA_LISTEN="127.0.0.1:$replica_port" PGKUBE_LISTEN="127.0.0.1:$api_port" \
  HA_STREAMING_LISTEN="127.0.0.1:$streaming_port"
for i in 1 2 3; do
  export "NODE$i=127.0.0.1:$(pg_port $i)" "NODE${i}_REST=$(rest_port $i)" "PGKUBE_$i=127.0.0.1:$(pgkube_port $i)"
done
for i in 1 2 3; do
  sed -e "s|@NAME@|node$i|g" -e "s|@DIR@|$dir|g" -e "s|@ETCD_PORT@|$etcd_port|g" -e "s|@STREAMING_PORT@|$streaming_port|g" \
    -e "s|@PG_PORT@|$(pg_port $i)|g" -e "s|@REST_PORT@|$(rest_port $i)|g" "$here/patroni.yml.in" >"$dir/node$i.yml"
  chmod 644 "$dir/node$i.yml"
  bash "$here/patroni.sh" "$dir" "node$i"
  # The first node bootstraps the cluster alone, so that it is the one that runs initdb. The others copy it and stream
  # from it through HAProxy's streaming port (every node's connect_address, patroni.yml.in says why): HAProxy first.
  if [ "$i" -eq 1 ]; then
    until_true "a primary" 60 curl -sf "http://127.0.0.1:$(rest_port 1)/primary"
    background haproxy haproxy -db -f "$here/haproxy.cfg"
    until_true "HAProxy routing to the primary" 30 psql "postgres://postgres@127.0.0.1:$primary_port/postgres" -Atc 'SELECT NOT pg_is_in_recovery()' -v ON_ERROR_STOP=1
  fi
done
until_true "a synchronous standby" 120 bash -c "patronictl -c '$dir/node1.yml' list -f json | grep -q '\"Sync Standby\"'"
for i in 1 2 3; do until_true "node$i streaming" 120 bash -c "patronictl -c '$dir/node1.yml' list -f json | grep -q '\"Member\": \"node$i\".*\"State\": \"\\(running\\|streaming\\)\"'"; done

database_url="postgres://postgres@127.0.0.1:$primary_port/postgres"
if [ "$instances" -gt 0 ]; then
  [ -f "$root/dist/main.js" ] || (cd "$root" && npm run --silent build)
  for i in $(seq "$instances"); do
    background "pgkube-$i" env DATABASE_URL="$database_url" PORT="$(pgkube_port "$i")" SECURE_PORT="$((base + 50 + i))" \
      node "$root/dist/main.js"
  done
  for i in $(seq "$instances"); do until_true "pgkube-$i ready" 120 curl -sf "http://127.0.0.1:$(pgkube_port "$i")/readyz"; done
fi

cat <<INFO
HA topology up in $dir
  etcd                  127.0.0.1:$etcd_port
  PostgreSQL nodes      127.0.0.1:$(pg_port 1) $(pg_port 2) $(pg_port 3) (Patroni REST $(rest_port 1) $(rest_port 2) $(rest_port 3))
  primary (read-write)  $database_url
  replicas (read-only)  postgres://postgres@127.0.0.1:$replica_port/postgres
  standbys stream from  127.0.0.1:$streaming_port (HAProxy, to the primary: every node's connect_address)
  pgkube instances      $(for i in $(seq "$instances"); do printf 'http://127.0.0.1:%s ' "$(pgkube_port "$i")"; done)
  API via HAProxy       http://127.0.0.1:$api_port
  patronictl -c $dir/node1.yml list
INFO
