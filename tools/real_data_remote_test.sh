#!/usr/bin/env bash
# Real data by content on the project's Buildbarn cluster: a data file enters
# the CAS once, whichever client, output base or action needs it after.
#
# Copies this workspace into $TEST_TMPDIR, starts tools/remote/cluster.sh on
# loopback ports of its own, and writes a data dir whose spaceship-titanic has
# raw/ only: the synthetic download plus 1 GiB of random files (4 of 128 MiB,
# 2048 of 256 KiB: random bytes from a fixed seed, so every file is a blob of
# its own and nothing compresses or dedupes), and a file name with spaces and
# parentheses. Then, with --repo_env=MLEBENCH_DATA_INPUTS=content, three
# clients, each a fresh output base (and no disk cache: the data reaches the
# cluster from the client, or not at all), build the competition's prepare
# step on the cluster (--remote_executor) and log every gRPC call
# (--experimental_remote_grpc_log); tools/testing/grpc_log_uploads.py counts
# the ByteStream Write calls, each the upload of one blob:
#   1. first client: every data file is written exactly once (1 GiB and the
#      CSVs), the step runs on the cluster;
#   2. second client: the cluster's action cache answers: nothing is written,
#      nothing runs;
#   3. third client, whose prepare step skips the action cache
#      (no-remote-cache), so that it runs again: FindMissingBlobs asks about
#      every data file, the CAS has them all, no data blob is written.
# The data dir is never written, and the prepared files are right.
set -euo pipefail

raw_src="$PWD/competitions/spaceship-titanic/raw"
grpc_log_uploads="$PWD/tools/testing/grpc_log_uploads.py"
source bazel/nested_bazel.sh
nested_workspace "$TEST_TMPDIR/ws"

fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -x tools/remote/cluster.sh ]] ||
  fail "tools/remote/cluster.sh is missing: this test needs the project's Buildbarn cluster"
[[ "$(id -u)" == 0 ]] || fail "the cluster's runners need root (docs/remote.md)"

competition=spaceship-titanic
logs="$TEST_TMPDIR/logs"
data="$TEST_TMPDIR/data"
manifest="$TEST_TMPDIR/data_blobs.txt"
mkdir -p "$logs" "$data/$competition"
home="$(getent passwd "$(id -u)" | cut -d: -f6)"

# The data dir: the synthetic download, 1 GiB of random files and an odd name.
cp -rL "$raw_src" "$data/$competition/raw"
chmod -R u+w "$data"
echo "notes" >"$data/$competition/raw/read me (v2) #1.txt"
started=$SECONDS
/usr/bin/python3 - "$data/$competition/raw" "$manifest" <<'PY'
import hashlib, os, random, sys
raw, manifest = sys.argv[1], sys.argv[2]
rng = random.Random(20240611)
os.makedirs(os.path.join(raw, "blobs", "small"))
files = [os.path.join("blobs", "big-%d.bin" % i) for i in range(4)]
files += [os.path.join("blobs", "small", "%04d.bin" % i) for i in range(2048)]
for name in files:
    size = (128 << 20) if "big" in name else (256 << 10)
    with open(os.path.join(raw, name), "wb") as f:
        for _ in range(0, size, 4 << 20):
            f.write(rng.randbytes(min(4 << 20, size)))
# Every file of raw/ is a data blob: "<sha256> <size>" a line.
with open(manifest, "w") as out:
    for root, _, names in os.walk(raw):
        for n in names:
            path = os.path.join(root, n)
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 22), b""):
                    h.update(chunk)
            out.write("%s %d\n" % (h.hexdigest(), os.path.getsize(path)))
PY
data_files="$(wc -l <"$manifest")"
data_bytes="$(awk '{s += $2} END {print s}' "$manifest")"
(( data_bytes > 1 << 30 )) || fail "the data dir holds only $data_bytes bytes"
echo "data: $data_files files, $data_bytes bytes, written in $((SECONDS - started)) s"
listing() { (cd "$data" && find . -printf '%p %s %T@\n' | sort); }
before="$(listing)"

# The cluster, on five free loopback ports. Its files go to a directory of
# its own under the user's cache: not under /tmp (its runners get a /tmp of
# their own), nor $TEST_TMPDIR (too long a path for the runners' sockets);
# removed at exit. Buildbarn's binaries are built once per machine, there too.
# The CAS keeps its default size, 16 GiB (sparse): Buildbarn stores a blob in
# one of 38 blocks, so a smaller one refuses the 128 MiB files (4 GiB: blobs
# up to about 113 MB).
mkdir -p "$home/.cache/mlebench"
export MLEBENCH_CLUSTER_DIR="$(mktemp -d "$home/.cache/mlebench/test-cluster.XXXXXX")" \
  MLEBENCH_CPU_SLOTS=1 MLEBENCH_GPU_SLOTS=1 MLEBENCH_GPU_DEVICES="" \
  XDG_CACHE_HOME="$home/.cache"
clients=()
cleanup() {
  local c
  for c in "${clients[@]}"; do
    /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc \
      --output_user_root="$TEST_TMPDIR/root-$c" shutdown >/dev/null 2>&1 || true
  done
  tools/remote/cluster.sh stop >/dev/null 2>&1 || true
  # The gigabytes: the cluster's files, the data and the output bases (the
  # logs stay in $TEST_TMPDIR/logs).
  chmod -R u+w "$MLEBENCH_CLUSTER_DIR" "$TEST_TMPDIR"/root-* 2>/dev/null || true
  rm -rf "$MLEBENCH_CLUSTER_DIR" "$data" "$TEST_TMPDIR"/root-*
}
trap cleanup EXIT
started=""
for attempt in 1 2 3 4 5; do
  export MLEBENCH_CLUSTER_PORT=$((20000 + (RANDOM * 7 + attempt * 101) % 40000))
  if tools/remote/cluster.sh start >"$logs/cluster-start.out" 2>&1; then
    started=1
    break
  fi
  grep -q "is in use" "$logs/cluster-start.out" || break
done
[[ -n "$started" ]] || { cat "$logs/cluster-start.out" >&2; fail "the cluster did not start"; }
endpoint="$(tools/remote/cluster.sh env | sed -n 's/^MLEBENCH_REMOTE_ENDPOINT=//p')"
[[ "$endpoint" == grpc://* ]] || fail "cluster.sh env printed no MLEBENCH_REMOTE_ENDPOINT"
echo "cluster: $endpoint"

CONTENT=(--repo_env=MLEBENCH_DATA_DIR="$data" --repo_env=MLEBENCH_DATA_INPUTS=content
         --repo_env=XDG_CACHE_HOME="$home/.cache")
# One client: a fresh output base builds the prepare step with
# --config=remote (docs/remote.md) on the test's cluster, the preparer with
# it (its compiles run there the first time, and come from the cluster's
# action cache after), with no disk cache (that config has none: Bazel 4.2.3
# cannot combine one with a remote executor), its gRPC calls logged.
client() {  # name, extra options...
  local name="$1"
  shift
  clients+=("$name")
  local bazel=(/usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc
               --output_user_root="$TEST_TMPDIR/root-$name")
  local t=$SECONDS
  "${bazel[@]}" build "${CONTENT[@]}" --config=remote --remote_executor="$endpoint" \
    --experimental_remote_grpc_log="$logs/$name.grpc" "$@" \
    "//competitions/$competition:${competition}_data" >"$logs/$name.out" 2>&1 ||
    { cat "$logs/$name.out" >&2; fail "$name: the remote build failed"; }
  echo "$name: built in $((SECONDS - t)) s ($(grep -o '[0-9]* processes: .*' "$logs/$name.out" | tail -1))"
  /usr/bin/python3 "$grpc_log_uploads" "$logs/$name.grpc" --blobs "$manifest" >"$logs/$name.json"
  bin="$("${bazel[@]}" info "${CONTENT[@]}" bazel-bin 2>/dev/null)"
  "${bazel[@]}" shutdown >/dev/null 2>&1 || true
}
field() {  # client, JSON field (dotted)
  /usr/bin/python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v = v[k]
print(v)' "$logs/$1.json" "$2"
}
expect() {  # client, field, expected value
  local got
  got="$(field "$1" "$2")"
  [[ "$got" == "$3" ]] || { cat "$logs/$1.json" >&2; fail "$1: $2 is $got, expected $3"; }
}
report() {
  echo "$1: $(field "$1" writes) blobs written ($(field "$1" write_bytes) bytes), of them" \
    "$(field "$1" data_writes) data files ($(field "$1" data_write_bytes) bytes);" \
    "FindMissingBlobs asked about $(field "$1" data_asked) data files, $(field "$1" data_missing)" \
    "missing; $(field "$1" executes) Execute call(s)"
}

client first
report first
expect first data_writes "$data_files"
expect first data_write_bytes "$data_bytes"
expect first data_written_twice "[]"
expect first data_missing "$data_files"
(( $(field first executes) >= 1 )) || fail "first: nothing ran on the cluster"
grep -q "prepared kaggle data from external/mlebench_data/content/$competition/raw" \
  "$logs/first.out" || { cat "$logs/first.out"; fail "first: no prepare step ran"; }
echo "ok: first client: each of the $data_files data files uploaded once ($data_bytes bytes)"

client second
report second
expect second writes 0
expect second executes 0
echo "ok: second client (fresh output base): the cluster's action cache answered, nothing uploaded"

client third '--modify_execution_info=^MlePrepare$=+no-remote-cache'
report third
expect third executes 1
expect third data_asked "$data_files"
expect third data_missing 0
expect third data_writes 0
echo "ok: third client (fresh output base, prepare step run again): no data file uploaded again"

[[ "$(cat "$bin/competitions/$competition/${competition}_data/dataset.txt")" == kaggle ]] ||
  fail "the dataset is not kaggle"
for f in public/train.csv public/test.csv public/sample_submission.csv private/test.csv; do
  [[ -s "$bin/competitions/$competition/${competition}_data/$f" ]] || fail "no prepared $f"
done
[[ "$(listing)" == "$before" ]] || fail "the data dir was modified"
echo "ok: prepared files in place, data dir untouched"
echo "PASS"
