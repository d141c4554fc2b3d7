#!/bin/bash
# digest_files.sh MANIFEST OUT: a SHA-256 over named files, for agent_digest
# and agent_environment (defs.bzl). MANIFEST has one "NAME<TAB>PATH" line per
# input: a file is hashed under NAME, a directory (a tree artifact) file by
# file under NAME/<its path inside>. OUT gets the SHA-256 (hex) of the sorted
# "HASH  NAME" lines. Any file that cannot be read fails the action: a digest
# never stands for files it did not see.
set -euo pipefail
manifest="$1"
out="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
: >"$work/names"
: >"$work/paths"
: >"$work/lines"
while IFS=$'\t' read -r name path; do
  if [[ -z "$name" || -z "$path" ]]; then
    echo "digest_files: a manifest line without a name and a path" >&2
    exit 1
  fi
  if [[ -d "$path" ]]; then
    (cd "$path" && find -L . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum --zero) |
      tr '\0' '\n' | awk -v name="$name" '{ print substr($0, 1, 64) "  " name "/" substr($0, 69) }' \
      >>"$work/lines"
  elif [[ -f "$path" ]]; then
    printf '%s\n' "$name" >>"$work/names"
    printf '%s\0' "$path" >>"$work/paths"
  else
    echo "digest_files: $path is neither a file nor a directory" >&2
    exit 1
  fi
done <"$manifest"
# One sha256sum for all plain files (thousands in an environment); --zero:
# no escaping of names, NUL-ended records, in the order given.
xargs -0 -r sha256sum --zero <"$work/paths" | tr '\0' '\n' | cut -c1-64 >"$work/hashes"
if [[ "$(wc -l <"$work/hashes")" != "$(wc -l <"$work/names")" ]]; then
  echo "digest_files: could not hash every file" >&2
  exit 1
fi
paste -d' ' "$work/hashes" "$work/names" | sed 's/ /  /' >>"$work/lines"
LC_ALL=C sort "$work/lines" | sha256sum | cut -c1-64 >"$out"
