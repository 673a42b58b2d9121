#!/usr/bin/env bash
# Starts one node's Patroni in the background (deploy/ha/up.sh, and the fault suite when it brings a lost host back):
#
#   deploy/ha/patroni.sh DIR NODE     # DIR/NODE.yml is its configuration; output appended to DIR/patroni-NODE.log
#
# DIR/patroni-NODE.pid gets Patroni's own pid, so that down.sh and the fault suite signal Patroni itself. It runs under
# `tini -s`: Patroni starts its PostgreSQL through a short-lived child, so the postmaster is an orphan, and Patroni
# counts a dead postmaster as running until it is reaped (a zombie still has its pid). A host's init reaps orphans at
# once under systemd, but late on some machines (1.2–1.7 s on the VMs this project is tested on: a SIGKILLed primary
# was noticed a Patroni loop or two after it died); tini, their subreaper here, reaps them at once. As root, Patroni
# (and so its PostgreSQL, which refuses root) runs as the postgres user.
set -euo pipefail
dir="$1" node="$2"
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_postgres tini -s -- bash -c "echo \$\$ > '$dir/patroni-$node.pid' && exec patroni '$dir/$node.yml'" >>"$dir/patroni-$node.log" 2>&1 &
