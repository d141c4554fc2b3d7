#!/bin/bash
# An agent on its own root file system (run_agent --rootfs; docs/agents.md,
# "Agents that bring a root file system"), with a small system made here from
# the host's bash and a few programs with the libraries they need (no network,
# no socat, no python3, no /etc/debian_version):
#   1. the agent sees that system, not the host's, and the host's only at
#      /run/mlebench/host, read-only; the sandbox entry's protections hold
#      (seccomp mode 2, no_new_privs, no capabilities, uid nobody), a setuid
#      file gives nothing, an environment still mounts under /opt/mlebench
#      beside the system's own /opt; validate_submission.sh runs its
#      (Bazel-built) validator through the host's loader;
#   2. network allowlist works without a socat in the system: the forwarder
#      is the host's, started through the host's loader, and maps only the
#      host's libraries; nothing is reachable directly;
#   3. the runner refuses a system outside the allowed roots, one that holds
#      a FIFO, one that differs from its manifest, one without usr, one with
#      opt/mlebench, and one without isolation;
#   4. run by an ordinary user (a user namespace), the same system works.
# Runs run_agent as root (cgroups, the uid drop), as the runner's other tests.
set -uo pipefail

runner=agent_runner/run_agent
entry=agent_runner/sandbox_entry
manifest_py=agent_runner/rootfs/rootfs_manifest.py
tmp="${TEST_TMPDIR:?}/rootfs_sandbox_test"
rm -rf "$tmp"
mkdir -p "$tmp/public" "$tmp/agents"
printf 'id,label\n0,a\n' > "$tmp/public/sample_submission.csv"
printf '# Toy\n' > "$tmp/description.md"
if [[ "$(id -u)" != 0 ]]; then
  echo "SKIP: needs root for cgroups and the uid drop; CI runs it as root"
  exit 0
fi

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The sandbox entry is static: no loader, no library of whatever system the
# sandbox shows is ever loaded into it.
if readelf -lW "$entry" | grep -q 'program interpreter'; then
  fail "the sandbox entry is dynamically linked: $(readelf -lW "$entry" | grep interpreter)"
fi

# A system of bash, cat, grep, id and ls, with their libraries and loader.
make_rootfs() {  # DIR
  local root="$1" program lib
  mkdir -p "$root/usr/bin" "$root/usr/lib/x86_64-linux-gnu" "$root/usr/lib64" "$root/etc" \
    "$root/opt/vendor"
  ln -s usr/bin "$root/bin"
  ln -s usr/lib "$root/lib"
  ln -s usr/lib64 "$root/lib64"
  for program in bash cat grep id ls; do
    cp "$(readlink -f "/usr/bin/$program")" "$root/usr/bin/$program"
    for lib in $(ldd "/usr/bin/$program" | grep -o '/[^ ]*'); do
      case "$lib" in
        */ld-linux-x86-64.so.2) cp -n "$(readlink -f "$lib")" "$root/usr/lib64/ld-linux-x86-64.so.2" ;;
        *) cp -n "$(readlink -f "$lib")" "$root/usr/lib/x86_64-linux-gnu/$(basename "$lib")" ;;
      esac
    done
  done
  ln -s bash "$root/usr/bin/sh"
  cp "$root/usr/bin/id" "$root/usr/bin/setuid-id"
  chmod 4755 "$root/usr/bin/setuid-id"
  printf 'ID=mlebench-test\nPRETTY_NAME="a hand-made test system"\n' > "$root/etc/os-release"
  echo "the system's own /opt" > "$root/opt/vendor/marker"
  /usr/bin/python3 -I -S "$manifest_py" "$root" > "$root.manifest" || fail "no manifest of $root"
}
roots="$tmp/roots"
make_rootfs "$roots/rootfs"
[[ ! -e "$roots/rootfs/usr/bin/socat" && ! -e "$roots/rootfs/usr/bin/python3" ]] ||
  fail "the test system has socat or python3"
env="$roots/tools"
mkdir -p "$env"
echo "an environment" > "$env/marker"

agent() {  # NAME BODY: an agent script, run by the system's /bin/sh (bash)
  printf '#!/bin/sh\n%s\n' "$2" > "$tmp/agents/$1"
  chmod 0555 "$tmp/agents/$1"
}
run() {  # NAME ARGS...: run_agent on agent NAME; its stderr in $tmp/NAME.stderr
  local name="$1"; shift
  "$runner" --competition toy --public "$tmp/public" --description "$tmp/description.md" \
    --submission_out "$tmp/$name/submission" --log_out "$tmp/$name/agent.log" \
    --record_out "$tmp/$name/record.json" --sandbox_entry "$entry" \
    --allowed_roots "$tmp/agents:$roots" --admission_ledger "$tmp/ledger" \
    --agent "$tmp/agents/$name" --seed 0 --time_limit_s 30 "$@" 2> "$tmp/$name.stderr"
}
log_has() { grep -qF -- "$2" "$tmp/$1/agent.log" || fail "$1: log lacks '$2': $(cat "$tmp/$1/agent.log")"; }
log_lacks() { ! grep -qF -- "$2" "$tmp/$1/agent.log" || fail "$1: log has '$2': $(cat "$tmp/$1/agent.log")"; }
record_has() { grep -qF -- "$2" "$tmp/$1/record.json" || fail "$1: record lacks '$2': $(cat "$tmp/$1/record.json")"; }

# 1. What the agent sees, and what it is.
agent sees '
while IFS= read -r line; do echo "os-release: $line"; done < /etc/os-release
for path in /usr/bin/python3 /usr/bin/bwrap /usr/bin/socat /etc/debian_version /etc/passwd; do
  if [ -e "$path" ]; then echo "present: $path"; else echo "absent: $path"; fi
done
[ -x /run/mlebench/host/usr/bin/bwrap ] && echo "host system at /run/mlebench/host"
( : > /run/mlebench/host/usr/planted ) 2>/dev/null && echo "wrote the host system"
( : > /usr/planted ) 2>/dev/null && echo "wrote the system"
echo "opt: $(cat /opt/vendor/marker) / $(cat /opt/mlebench/tools/marker)"
( : > /opt/planted ) 2>/dev/null && echo "wrote /opt"
grep -E "^(Uid|Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):" /proc/self/status
echo "setuid id: $(setuid-id -u)"
cat "$MLEBENCH_SAMPLE_SUBMISSION" > "$MLEBENCH_SUBMISSION_DIR/submission.csv"
if [ -x ./validate_submission.sh ]; then
  ./validate_submission.sh submission/submission.csv 2>&1 |
    while IFS= read -r line; do echo "validator: $line"; done
fi'
# The validator stand-in: run_agent, a Bazel-built program on the host's
# libraries (Abseil, libstdc++), which the test system lacks; its answer to
# the validator's arguments shows that it ran.
run sees --rootfs "$roots/rootfs" --rootfs_manifest "$roots/rootfs.manifest" \
  --environment "$env" --environment_mount /opt/mlebench/tools --validator "$runner" ||
  fail "sees: run_agent exited $?: $(cat "$tmp/sees.stderr")"
log_has sees 'os-release: ID=mlebench-test'
for path in /usr/bin/python3 /usr/bin/bwrap /usr/bin/socat /etc/debian_version /etc/passwd; do
  log_has sees "absent: $path"
done
log_has sees "host system at /run/mlebench/host"
log_lacks sees "wrote"
log_has sees "opt: the system's own /opt / an environment"
for line in "Uid:	65534	65534	65534	65534" "CapInh:	0000000000000000" \
  "CapPrm:	0000000000000000" "CapEff:	0000000000000000" "CapBnd:	0000000000000000" \
  "CapAmb:	0000000000000000" "NoNewPrivs:	1" "Seccomp:	2"; do
  log_has sees "$line"
done
log_has sees "setuid id: 65534"
log_has sees "validator: run_agent: unknown flag --sample"
log_lacks sees "error while loading shared libraries"
log_has sees "run_agent: the agent runs on its own root file system $roots/rootfs:"
log_has sees "as its manifest lists them; 1 setuid or setgid file(s) (usr/bin/setuid-id), which give nothing"
record_has sees '"isolation": "bwrap", "network": "deny"'
record_has sees '"submission_exists": true'

# 2. Network allowlist on a system without socat: a server on the host's
# loopback, reached through the proxy only.
/usr/bin/python3 - "$tmp/port" <<'EOF' &
import http.server, os, sys
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"hello from the host\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1] + ".partial", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[1] + ".partial", sys.argv[1])
server.serve_forever()
EOF
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 200); do [[ -s "$tmp/port" ]] && break; sleep 0.05; done
port="$(cat "$tmp/port")" || { echo "FAIL: the server did not start"; exit 1; }
agent net '
target="$MLEBENCH_ALLOWED_HOSTS"
if exec 3<>/dev/tcp/127.0.0.1/3128; then
  printf "GET http://%s/hello HTTP/1.0\r\nHost: %s\r\n\r\n" "$target" "$target" >&3
  while IFS= read -r line <&3; do echo "through the proxy: $line"; done
  exec 3<&-
fi
( exec 4<>"/dev/tcp/${target%:*}/${target#*:}" ) 2>/dev/null && echo "direct: reached" || echo "direct: refused"
for p in /proc/[0-9]*; do
  grep -q TCP4-LISTEN "$p/cmdline" 2>/dev/null || continue
  while IFS= read -r line; do
    case "$line" in
      *.so*) lib="/${line#*/}"; case "$lib" in
        /run/mlebench/host/*) echo "forwarder maps host ${lib##*/}" ;;
        *) echo "forwarder maps $lib" ;;
      esac ;;
    esac
  done < "$p/maps"
done
cat "$MLEBENCH_SAMPLE_SUBMISSION" > "$MLEBENCH_SUBMISSION_DIR/submission.csv"'
run net --rootfs "$roots/rootfs" --network allowlist --allowed_hosts "127.0.0.1:$port" ||
  fail "net: run_agent exited $?: $(cat "$tmp/net.stderr")"
log_has net "through the proxy: hello from the host"
log_has net "direct: refused"
log_has net "forwarder maps host ld-linux-x86-64.so.2"
log_has net "forwarder maps host libc.so.6"
log_has net "forwarder maps host libssl.so"  # socat's own, which the system lacks
grep -q "forwarder maps /" "$tmp/net/agent.log" &&
  fail "net: the forwarder maps a library of the agent's system: $(grep "forwarder maps /" "$tmp/net/agent.log")"
record_has net "\"allowed_hosts\": [\"127.0.0.1:$port\"]"
record_has net '"connections_total": 1, "connections_refused": 0'

# 3. Refused systems: an error of the runner, never a run.
expect_refused() {  # NAME MESSAGE ARGS...: the run fails with MESSAGE
  local name="$1" message="$2"; shift 2
  agent "$name" 'cat "$MLEBENCH_SAMPLE_SUBMISSION" > "$MLEBENCH_SUBMISSION_DIR/submission.csv"'
  if run "$name" "$@"; then
    fail "$name: run_agent accepted it"
  elif ! grep -qF -- "$message" "$tmp/$name.stderr"; then
    fail "$name: expected '$message', got: $(cat "$tmp/$name.stderr")"
  fi
  [[ ! -e "$tmp/$name/submission/submission.csv" ]] || fail "$name: the agent ran"
}
mkdir -p "$tmp/elsewhere"
make_rootfs "$tmp/elsewhere/rootfs"
expect_refused outside "lies outside every allowed root" --rootfs "$tmp/elsewhere/rootfs"
make_rootfs "$roots/fifo"
mkfifo "$roots/fifo/etc/initctl"
expect_refused fifo "is a socket, FIFO or device node" --rootfs "$roots/fifo"
make_rootfs "$roots/changed"
echo "# changed" >> "$roots/changed/etc/os-release"
expect_refused changed "etc/os-release is a file of mode 0644 and" \
  --rootfs "$roots/changed" --rootfs_manifest "$roots/changed.manifest"
make_rootfs "$roots/no-usr"
rm -rf "$roots/no-usr/usr"
expect_refused no-usr "has no usr directory" --rootfs "$roots/no-usr"
make_rootfs "$roots/opt-mlebench"
mkdir "$roots/opt-mlebench/opt/mlebench"
expect_refused opt-mlebench "has opt/mlebench" --rootfs "$roots/opt-mlebench"
expect_refused unconfined "it needs isolation bwrap" --rootfs "$roots/rootfs" \
  --isolation none --network unconfined

# 4. Run by an ordinary user: a user namespace of its own uid.
scratch="$(mktemp -d /tmp/mlebench-rootfs-test-XXXXXX)"
trap 'kill $server 2>/dev/null; rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/agents" "$scratch/tmp" "$scratch/out"
cp "$runner" "$entry" "$scratch/bin/"
cp "$tmp/agents/sees" "$scratch/agents/"
cp -a "$roots" "$scratch/roots"
cp -a "$tmp/public" "$tmp/description.md" "$scratch/"
# The system stays root's (its setuid-id a setuid-root file, as in an image).
chown -R 65533:65533 "$scratch/bin" "$scratch/agents" "$scratch/tmp" "$scratch/out" \
  "$scratch/public" "$scratch/description.md"
chmod 0755 "$scratch"
if setpriv --reuid=65533 --regid=65533 --clear-groups env TMPDIR="$scratch/tmp" \
  "$scratch/bin/run_agent" --competition toy --public "$scratch/public" \
  --description "$scratch/description.md" --submission_out "$scratch/out/submission" \
  --log_out "$scratch/out/agent.log" --record_out "$scratch/out/record.json" \
  --sandbox_entry "$scratch/bin/sandbox_entry" --allowed_roots "$scratch/agents:$scratch/roots" \
  --admission_ledger "$scratch/tmp/ledger" --agent "$scratch/agents/sees" --seed 0 \
  --time_limit_s 30 --resource_limits off --rootfs "$scratch/roots/rootfs" \
  --rootfs_manifest "$scratch/roots/rootfs.manifest" --environment "$scratch/roots/tools" \
  --environment_mount /opt/mlebench/tools 2> "$tmp/ordinary.stderr"; then
  mkdir -p "$tmp/ordinary"
  cp "$scratch/out/agent.log" "$scratch/out/record.json" "$tmp/ordinary/"
  log_has ordinary 'os-release: ID=mlebench-test'
  log_has ordinary "absent: /usr/bin/python3"
  log_has ordinary "host system at /run/mlebench/host"
  log_lacks ordinary "wrote"
  log_has ordinary "Uid:	65533	65533	65533	65533"
  log_has ordinary "CapEff:	0000000000000000"
  log_has ordinary "NoNewPrivs:	1"
  log_has ordinary "Seccomp:	2"
  log_has ordinary "setuid id: 65533"
  record_has ordinary '"submission_exists": true'
else
  fail "ordinary: run_agent exited $?: $(cat "$tmp/ordinary.stderr")"
fi

if (( failures > 0 )); then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
