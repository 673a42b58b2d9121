#!/usr/bin/env bash
# Puts kubectl 1.20 (Debian's kubernetes-client package, the oldest client pgkube supports) in .tools/kubectl-1.20/
# without installing it (it would clash with the kubectl already on the machine). The e2e tests use it when present.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.tools/kubectl-1.20
[ -x "$target/usr/bin/kubectl" ] && exit 0
if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
  echo "kubectl 1.20 missing: no apt-get/dpkg here; put Debian's kubernetes-client package (dpkg -x) in $target, or the e2e tests run with the PATH's kubectl only" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && apt-get download kubernetes-client >/dev/null 2>&1) &&
  ! { apt-get update -qq >/dev/null 2>&1 && (cd "$work" && apt-get download kubernetes-client >/dev/null 2>&1); }; then
  echo "kubectl 1.20 missing: apt-get could not download Debian's kubernetes-client (as root, with Debian's package lists); the e2e tests run with the PATH's kubectl only" >&2
  exit 0
fi
mkdir -p "$target"
dpkg -x "$work"/kubernetes-client_*.deb "$target"
"$target/usr/bin/kubectl" version --client 2>/dev/null | head -1
