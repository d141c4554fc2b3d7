#!/bin/bash
# tools/secrets/with_secrets.sh with a stand-in for Bazel: what it hands the
# runner, what Bazel's environment keeps, when the values go, and what it
# refuses.
set -uo pipefail
wrapper=tools/secrets/with_secrets.sh
tmp="${TEST_TMPDIR:?}/with_secrets"
rm -rf "$tmp"; mkdir -p "$tmp/output_base"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
export MLEBENCH_SECRETS_ROOT="$tmp/root"
dir="$tmp/root/ob-$(stat -c '%d-%i' "$tmp/output_base")"

# A Bazel: `info output_base` prints the output base; any other command
# records its environment and the handed-over files, and waits for
# $tmp/release.<name> when GO_SLOW names it.
cat > "$tmp/bazel" <<EOS
#!/bin/bash
for arg in "\$@"; do
  if [[ "\$arg" == info ]]; then echo "$tmp/output_base"; exit 0; fi
done
env > "$tmp/env.\${RUN_NAME:-run}"
ls -A "$dir" > "$tmp/files.\${RUN_NAME:-run}" 2>/dev/null
cat "$dir/FROM_ARGS" > "$tmp/value.\${RUN_NAME:-run}" 2>/dev/null
if [[ -n "\${GO_SLOW:-}" ]]; then
  while [[ ! -e "$tmp/release.\$GO_SLOW" ]]; do sleep 0.05; done
fi
exit 7
EOS
chmod +x "$tmp/bazel"
printf 'build --//agent_runner:secret=FROM_RC\n' > "$tmp/user.bazelrc"

FROM_ARGS='value one' FROM_RC=rc-value UNSET_NAME= RUN_NAME=first \
  bash "$wrapper" "$tmp/user.bazelrc" "$tmp/missing.bazelrc" -- "$tmp/bazel" --batch test //x \
  --//agent_runner:secret=FROM_ARGS,UNSET_NAME,bad-name
[[ $? == 7 ]] || fail "Bazel's exit status was not passed on"
[[ "$(cat "$tmp/value.first")" == "value one" ]] || fail "FROM_ARGS was not handed over"
[[ "$(cat "$tmp/files.first")" == $'FROM_ARGS\nFROM_RC' ]] || fail "handed over: $(cat "$tmp/files.first")"
grep -q -e '^FROM_ARGS=' -e '^FROM_RC=' "$tmp/env.first" && fail "Bazel's environment kept a secret"
grep -q '^RUN_NAME=first' "$tmp/env.first" || fail "Bazel lost the rest of its environment"
[[ "$(stat -c %a "$tmp/root") $(stat -c %a "$dir")" == "700 700" ]] || fail "directory modes"
[[ -z "$(ls -A "$dir")" ]] || fail "values left after the command: $(ls -A "$dir")"

# Without secrets, Bazel runs as it is (no `info`, no directory).
rm -rf "$tmp/root"
FROM_ARGS=x RUN_NAME=plain bash "$wrapper" -- "$tmp/bazel" test //x
grep -q '^FROM_ARGS=x' "$tmp/env.plain" || fail "a variable no secret names was removed"
[[ ! -e "$tmp/root" ]] || fail "a command without secrets made the directory"

# Two commands of one output base at once: the values stay until the last ends.
FROM_ARGS=slow GO_SLOW=a RUN_NAME=a bash "$wrapper" -- "$tmp/bazel" test //x \
  --//agent_runner:secret=FROM_ARGS &
a=$!
for _ in $(seq 100); do [[ -e "$tmp/env.a" ]] && break; sleep 0.05; done
FROM_ARGS=slow RUN_NAME=b bash "$wrapper" -- "$tmp/bazel" test //y --//agent_runner:secret=FROM_ARGS
[[ "$(cat "$dir/FROM_ARGS" 2>/dev/null)" == slow ]] || fail "the second command removed the first's values"
touch "$tmp/release.a"; wait $a
[[ -z "$(ls -A "$dir")" ]] || fail "values left after the last command: $(ls -A "$dir")"

# A flag given twice would lose the first: an error.
out="$(bash "$wrapper" -- "$tmp/bazel" test //x --//agent_runner:secret=A \
  --//agent_runner:secret=B 2>&1)"
[[ $? == 2 && "$out" == *"given more than once"* ]] || fail "a repeated secret flag: $out"
out="$(bash "$wrapper" -- "$tmp/bazel" test //x --//agent_runner:allowed_hosts=a.com \
  --//agent_runner:allowed_hosts=b.com 2>&1)"
[[ $? == 2 ]] || fail "a repeated allowed_hosts flag: $out"

# A directory that is not the caller's own, or a symlink, is refused.
rm -rf "$tmp/root"; ln -s "$tmp/elsewhere" "$tmp/root"
X=1 bash "$wrapper" -- "$tmp/bazel" test --//agent_runner:secret=X 2>/dev/null && fail "symlink accepted"
[[ ! -e "$tmp/elsewhere" ]] || fail "wrote through the symlink"
rm -f "$tmp/root"
if [[ "$(id -u)" == 0 ]]; then
  mkdir -m 700 "$tmp/root" && chown 65534:65534 "$tmp/root"
  X=1 bash "$wrapper" -- "$tmp/bazel" test --//agent_runner:secret=X 2>/dev/null &&
    fail "another user's directory accepted"
fi

(( failures == 0 )) && echo PASS || { echo "$failures failure(s)"; exit 1; }
