#!/usr/bin/env bash
# Makes (once per machine and recipe) a Debian root file system for an agent
# with Debian's mmdebstrap and prints its directory. Called by the
# debian_rootfs repository rule (rootfs.bzl); usable by hand:
#
#   make_debian_rootfs.sh SUITE VARIANT MIRROR PACKAGES NAME
#
# PACKAGES is a comma-separated list (may be empty). The result lives in
# ${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/rootfs/<digest of the recipe>/:
#   rootfs/           the system (without /dev's nodes), files owned by the
#                     user who made it, modes as Debian's packages set them;
#   rootfs.manifest   rootfs_manifest.py's manifest of the trees the sandbox
#                     binds (usr, bin, sbin, lib*, etc, opt): what the build
#                     and the agent's digest know of it.
# Made small: mmdebstrap's VARIANT (essential: only Debian's Essential
# packages and PACKAGES with their dependencies), merged /usr by mmdebstrap's
# hook instead of the usrmerge package (which pulls in perl), no manuals,
# documentation (copyright files kept), info pages or translations. Made
# reproducibly: SOURCE_DATE_EPOCH is fixed, so mmdebstrap makes the same
# bytes from the same packages, and the host's /etc/resolv.conf and
# /etc/hostname, which mmdebstrap copies in, are taken out again (the system
# has neither); the packages are the mirror's on the day it
# runs (a later point release gives another manifest, and so another agent
# digest). etc/mlebench-rootfs says how it was made. As root mmdebstrap
# builds in a chroot; otherwise it needs user namespaces and subordinate ids
# (/etc/subuid; docs/agents.md). A half-made system is never used: .complete
# is written last, under a lock that concurrent builds share.
set -euo pipefail
suite="$1"
variant="$2"
mirror="$3"
packages="$4"
name="$5"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
umask 022
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v mmdebstrap >/dev/null ||
  { echo "no mmdebstrap: install Debian's mmdebstrap (./bazelw does)" >&2; exit 1; }
digest="$({ printf '%s\n' "$suite" "$variant" "$mirror" "$packages"; mmdebstrap --version;
  cat "$0" "$here/rootfs_manifest.py"; } | sha256sum | cut -c1-16)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/rootfs"
dir="$cache/$digest"
if [[ -f "$dir/.complete" ]]; then
  echo "$dir"
  exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [[ ! -f "$dir/.complete" ]]; then
  echo "making the root file system of $name with mmdebstrap in $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  fail() { echo "cannot make the root file system of $name: $*" >&2; rm -rf "$dir"; exit 1; }
  include=()
  [[ -n "$packages" ]] && include=("--include=$packages")
  start=$SECONDS
  SOURCE_DATE_EPOCH=1700000000 mmdebstrap --quiet --mode=auto --variant="$variant" \
    "${include[@]}" --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname"' \
    "$suite" "$dir/rootfs.tar" "$mirror" >&2 ||
    fail "mmdebstrap failed (is $mirror reachable? not root: are user namespaces and /etc/subuid set up?)"
  mkdir "$dir/rootfs.partial"
  # The user's files (as root: root's), Debian's modes; no device nodes.
  tar -x -p --no-same-owner --exclude='./dev/*' -f "$dir/rootfs.tar" -C "$dir/rootfs.partial" ||
    fail "cannot unpack mmdebstrap's archive"
  rm "$dir/rootfs.tar"
  printf 'made by debian_rootfs (agent_runner/rootfs/rootfs.bzl) with mmdebstrap\nsuite %s\nvariant %s\nmirror %s\npackages %s\n' \
    "$suite" "$variant" "$mirror" "$packages" >"$dir/rootfs.partial/etc/mlebench-rootfs"
  mv "$dir/rootfs.partial" "$dir/rootfs"
  /usr/bin/python3 -I -S "$here/rootfs_manifest.py" "$dir/rootfs" >"$dir/rootfs.manifest" ||
    fail "cannot write its manifest"
  echo "made the root file system of $name in $((SECONDS - start)) s: $(du -sh "$dir/rootfs" | cut -f1)," \
    "$(($(wc -l <"$dir/rootfs.manifest") - 1)) entries in the sandbox's trees" >&2
  touch "$dir/.complete"
fi
echo "$dir"
