#!/usr/bin/env bash
# Remakes tools/dolos/package-lock.json from tools/dolos/package.json: exact
# versions and sha512 integrity of @dodona/dolos-lib and every package it
# needs, resolved by npm without running any package's scripts. A developer's
# step, like tools/python/update_lock.sh; the build never runs npm
# (install_dolos.py installs from the lock). Needs an npm (NPM=..., default
# the npm on PATH; Debian's `npm` package or the one bundled with Node.js)
# that reaches the registry (MLEBENCH_NPM_REGISTRY, default npmjs.org).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
npm="${NPM:-npm}"
registry="${MLEBENCH_NPM_REGISTRY:-https://registry.npmjs.org}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/package.json" "$work/"
touch "$work/user.npmrc" "$work/global.npmrc"
# No user or global npmrc: only these options decide the lock.
(cd "$work" && NPM_CONFIG_USERCONFIG="$work/user.npmrc" NPM_CONFIG_GLOBALCONFIG="$work/global.npmrc" \
  "$npm" install --package-lock-only --ignore-scripts --no-audit --no-fund \
  --registry "$registry" --lockfile-version 3 >&2)
cp "$work/package-lock.json" "$here/package-lock.json"
echo "wrote $here/package-lock.json" >&2
