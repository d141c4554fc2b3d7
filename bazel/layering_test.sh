#!/usr/bin/env bash
# //bazel:layering_test LAYER_TABLE LAYERING_CHECK FIND_PACKAGES
# 1. The include check over every source file in the runfiles (the sources of
#    every package @mlebench_packages found).
# 2. The visibility bazel/layers.bzl derived for each layer admits exactly the
#    packages whose layer may use it (checked by the include check's own
#    reading of the table).
# 3. A planted tree: new packages found by bazel/find_packages.py, and the
#    violations in them rejected, each named.
set -euo pipefail
table="$PWD/$1"
check="$PWD/$2"
find_packages="$PWD/$3"

files=$(find . -path ./external -prune -o \( -name '*.cc' -o -name '*.h' -o -name '*.inc' \) -print |
  sed 's#^\./##' | LC_ALL=C sort)
count=$(echo "$files" | wc -l)
if [ "$count" -lt 1000 ]; then
  echo "FAIL: only $count source files in the runfiles: packages' sources are missing" >&2
  exit 1
fi
# shellcheck disable=SC2086
/usr/bin/python3 "$check" "$table" $files

/usr/bin/python3 - "$table" "$(dirname "$check")" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[2])
import layering_check
table = json.load(open(sys.argv[1]))
layers = layering_check.Layers(table)
problems = 0
for name, visibility in sorted(table["visibility"].items()):
    for package in table["packages"]:
        user = layers.of(package + "/" if package else "")
        expected = user is not None and layers.may_use(user, name)
        admitted = "//visibility:public" in visibility or any(
            v == "//%s:__pkg__" % package or
            (v.endswith(":__subpackages__") and
             (package + "/").startswith(v[2:-len(":__subpackages__")] + "/"))
            for v in visibility)
        if admitted != expected:
            problems += 1
            print("FAIL: layer %s's visibility %s //%s (layer %s)" %
                  (name, "admits" if admitted else "leaves out", package, user))
print("visibility of %d layers held against %d packages: %d mismatches" %
      (len(table["visibility"]), len(table["packages"]), problems))
sys.exit(1 if problems else 0)
EOF

# The planted tree: three new packages, each with one upward include, and one
# file that breaks nothing.
planted="$TEST_TMPDIR/planted"
rm -rf "$planted"
mkdir -p "$planted/base/new_package" "$planted/grading/metrics/new_family" \
  "$planted/competitions/new-competition" "$planted/competitions/other-competition"
touch "$planted/WORKSPACE" "$planted/base/BUILD.bazel" "$planted/base/new_package/BUILD.bazel" \
  "$planted/grading/metrics/new_family/BUILD.bazel" \
  "$planted/competitions/new-competition/BUILD.bazel" \
  "$planted/competitions/other-competition/BUILD.bazel"
printf '#include "grading/grader.h"\n' >"$planted/base/new_package/upward.cc"
printf '#include "base/status_macros.h"\n' >"$planted/base/new_package/fine.cc"
printf '#include "grading/report.h"\n' >"$planted/grading/metrics/new_family/metric.cc"
printf '#include "competitions/other-competition/grade.h"\n' \
  >"$planted/competitions/new-competition/grade.cc"
printf '\n' >"$planted/competitions/other-competition/grade.h"
found=$(/usr/bin/python3 "$find_packages" --bzl "$planted")
for package in base/new_package grading/metrics/new_family competitions/new-competition; do
  if ! grep -q "\"$package\"" <<<"$(sed -n '/PACKAGES_WITH_SOURCES/,$p' <<<"$found")"; then
    echo "FAIL: find_packages.py did not find the new package $package with sources" >&2
    echo "$found" >&2
    exit 1
  fi
done
planted_files=$(/usr/bin/python3 "$find_packages" --files "$planted")
set +e
# shellcheck disable=SC2086
output=$(cd "$planted" && /usr/bin/python3 "$check" "$table" $planted_files)
status=$?
set -e
echo "$output"
expect() {
  if ! grep -qF "$1" <<<"$output"; then
    echo "FAIL: the planted tree's check does not say: $1" >&2
    exit 1
  fi
}
[ "$status" -eq 1 ] || { echo "FAIL: the planted violations passed (exit $status)" >&2; exit 1; }
expect "base/new_package/upward.cc (layer base) includes grading/grader.h (layer grading)"
expect "grading/metrics/new_family/metric.cc (layer metrics) includes grading/report.h (layer grading)"
expect "competitions/new-competition/grade.cc includes competitions/other-competition/grade.h: another competition's code"
expect "5 files checked, 3 violations"
echo "ok: the planted new packages' three upward includes are rejected, the fine one passes"
