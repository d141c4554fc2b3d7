#!/usr/bin/env bash
# Builds Buildbarn's four binaries (bb_storage, bb_scheduler, bb_worker,
# bb_runner) at pinned versions, once per machine, and prints the directory
# that holds them.
#
#   tools/remote/build_buildbarn.sh            # builds if needed, prints bin dir
#   tools/remote/build_buildbarn.sh --print    # prints the dir, builds nothing
#
# Everything comes from the Go module proxy ($MLEBENCH_GOPROXY, else
# https://proxy.golang.org): the Go toolchain itself (golang.org/toolchain,
# checked against the SHA-256 below), Buildbarn's modules and their
# dependencies (checked against go.sum and the checksum database by Go). The Go
# on the machine's PATH is never used. The result lives under
# ${XDG_CACHE_HOME:-~/.cache}/mlebench/buildbarn/<pin digest>/bin; a changed pin
# builds a new directory. Cold, about 4 minutes on 2 cores.
#
# Why this commit: Buildbarn after mid-2025 made (and then removed) the REAPI
# output fields Bazel 4.2.3 reads; this one serves Bazel 4.2.3 end to end
# (docs/remote.md).
set -euo pipefail

GO_VERSION=1.24.13
GO_ZIP_SHA256=d2b048367a3d1a748b87f756fa06df12ce3b419e1d5f2a3612acb8950d615f9f
BB_REMOTE_EXECUTION=github.com/buildbarn/bb-remote-execution@v0.0.0-20250626085515-d879803aa1fa
# Buildbarn's own patches to two dependencies (the ones its Bazel build
# applies), as the module's go.mod pins them.
GO_FUSE=github.com/hanwen/go-fuse/v2@v2.5.1
BYTESTREAM_MODULE=google.golang.org/genproto/googleapis/bytestream

proxy="${MLEBENCH_GOPROXY:-https://proxy.golang.org}"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/buildbarn"
pin="$(printf '%s\n' "$GO_VERSION" "$GO_ZIP_SHA256" "$BB_REMOTE_EXECUTION" "$GO_FUSE" \
  "$(cat "$0" "$(dirname "$0")"/patches/*.diff | sha256sum | cut -c1-64)" | sha256sum | cut -c1-16)"
out="$cache_root/$pin"

if [[ "${1:-}" == "--print" ]]; then
  echo "$out/bin"
  exit 0
fi
if [[ -x "$out/bin/bb_runner" ]]; then
  echo "$out/bin"
  exit 0
fi

mkdir -p "$cache_root"
# One build at a time per machine; a second caller waits and reuses it.
exec 9>"$cache_root/.lock"
flock 9
if [[ -x "$out/bin/bb_runner" ]]; then
  echo "$out/bin"
  exit 0
fi

work="$(mktemp -d "$cache_root/build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
log() { echo "build_buildbarn: $*" >&2; }

log "Go $GO_VERSION from $proxy"
curl -fsSL --retry 3 -o "$work/go.zip" \
  "$proxy/golang.org/toolchain/@v/v0.0.1-go$GO_VERSION.linux-amd64.zip"
echo "$GO_ZIP_SHA256  $work/go.zip" | sha256sum -c --quiet -
(cd "$work" && python3 -I -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  go.zip toolchain)
goroot="$(echo "$work"/toolchain/golang.org/toolchain@*)"
chmod +x "$goroot"/bin/* "$goroot"/pkg/tool/*/*

# A Go of our own, with nothing from the caller's Go environment.
export GOROOT="$goroot" GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod" \
  GOCACHE="$work/gocache" GOPROXY="$proxy" GOTOOLCHAIN=local GOFLAGS=-mod=mod \
  CGO_ENABLED=0 GO111MODULE=on GOENV=off
unset GOBIN GONOSUMDB GONOSUMCHECK GOPRIVATE GOINSECURE
go="$goroot/bin/go"

log "downloading $BB_REMOTE_EXECUTION"
dir="$("$go" mod download -json "$BB_REMOTE_EXECUTION" | python3 -I -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
src="$work/bb-remote-execution"
cp -r "$dir" "$src"
chmod -R u+w "$src"

# Builds a patched, writable copy of a module and points the build at it.
patched_module() {  # module@version, patch files...
  local module="$1" d copy
  shift
  d="$("$go" mod download -json "$module" | python3 -I -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
  copy="$work/patched/${module//[\/@]/_}"
  mkdir -p "$(dirname "$copy")"
  cp -r "$d" "$copy"
  chmod -R u+w "$copy"
  local p
  for p in "$@"; do
    patch -s -d "$copy" -p0 <"$p"
  done
  (cd "$src" && "$go" mod edit -replace "${module%@*}=$copy")
}

# Our own patch: no action's outputs may hold a symbolic link (a client
# would resolve it in its own output tree and upload what it names; see the
# patch and docs/security.md).
log "patching bb-remote-execution: symbolic links refused among outputs"
patch -s -d "$src" -p1 <"$(dirname "$0")/patches/refuse_output_symlinks.diff"

log "patching go-fuse"
patched_module "$GO_FUSE" "$src"/patches/com_github_hanwen_go_fuse_v2/*.diff

bb_storage_module="$(cd "$src" && "$go" list -m -f '{{.Path}}@{{.Version}}' github.com/buildbarn/bb-storage)"
bb_storage_dir="$(cd "$src" && "$go" mod download -json "$bb_storage_module" | python3 -I -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
bytestream="$(cd "$src" && "$go" list -m -f '{{.Path}}@{{.Version}}' "$BYTESTREAM_MODULE" 2>/dev/null ||
  "$go" list -m -f '{{.Path}}@{{.Version}}' google.golang.org/genproto/googleapis/bytestream)"
log "patching $bytestream"
patched_module "$bytestream" "$bb_storage_dir/patches/org_golang_google_genproto_googleapis_bytestream/service-registrar.diff"

log "building (about 4 minutes cold)"
mkdir -p "$work/bin"
(cd "$src" && "$go" build -trimpath -o "$work/bin/" \
  ./cmd/bb_scheduler ./cmd/bb_worker ./cmd/bb_runner \
  github.com/buildbarn/bb-storage/cmd/bb_storage)

mkdir -p "$out"
rm -rf "$out/bin"
mv "$work/bin" "$out/bin"
log "done: $out/bin"
echo "$out/bin"
