#!/usr/bin/env bash
# Puts kubectl 1.20 (Debian's kubernetes-client package, the oldest client pgkube supports) in .tools/kubectl-1.20/
# without installing it (it would clash with the kubectl already on the machine). The e2e tests use it when present.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.tools/kubectl-1.20
[ -x "$target/usr/bin/kubectl" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download kubernetes-client >/dev/null 2>&1) || { apt-get update -qq >/dev/null && (cd "$work" && apt-get download kubernetes-client >/dev/null); }
mkdir -p "$target"
dpkg -x "$work"/kubernetes-client_*.deb "$target"
"$target/usr/bin/kubectl" version --client 2>/dev/null | head -1
