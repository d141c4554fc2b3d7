#!/bin/bash
# tools/secrets/handoff.sh: what ./bazelw hands the runner, and what it refuses.
set -uo pipefail
handoff=tools/secrets/handoff.sh
tmp="${TEST_TMPDIR:?}/handoff"
rm -rf "$tmp"; mkdir -p "$tmp"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

printf 'build --//agent_runner:secret=FROM_RC\n' > "$tmp/user.bazelrc"
dir="$tmp/secrets"
FROM_ARGS='value one' FROM_RC=rc-value UNSET_NAME= bash "$handoff" "$dir" "$tmp/user.bazelrc" \
  "$tmp/missing.bazelrc" -- test //x --//agent_runner:secret=FROM_ARGS,UNSET_NAME,bad-name ||
  fail "handoff failed"
[[ "$(cat "$dir/FROM_ARGS")" == "value one" ]] || fail "FROM_ARGS: $(cat "$dir/FROM_ARGS")"
[[ "$(cat "$dir/FROM_RC")" == "rc-value" ]] || fail "FROM_RC not handed over"
[[ ! -e "$dir/UNSET_NAME" ]] || fail "an empty variable was handed over"
[[ "$(stat -c %a "$dir")" == 700 && "$(stat -c %a "$dir/FROM_ARGS")" == 600 ]] ||
  fail "modes: $(stat -c '%a %n' "$dir" "$dir"/*)"
[[ -z "$(find "$dir" -name '.*.tmp')" ]] || fail "temporary files left"

# The next invocation removes what the last one left.
bash "$handoff" "$dir" -- build //x || fail "second handoff failed"
[[ -z "$(ls -A "$dir")" ]] || fail "stale secrets left: $(ls -A "$dir")"

# A directory that is not the caller's own, or a symlink, is refused.
ln -s "$tmp/elsewhere" "$tmp/link"
X=1 bash "$handoff" "$tmp/link" -- --//agent_runner:secret=X 2>/dev/null && fail "symlink accepted"
[[ ! -e "$tmp/elsewhere" ]] || fail "wrote through the symlink"
touch "$tmp/file"
bash "$handoff" "$tmp/file" -- 2>/dev/null && fail "a file accepted as the directory"
if [[ "$(id -u)" == 0 ]]; then
  mkdir "$tmp/foreign" && chown 65534:65534 "$tmp/foreign"
  X=1 bash "$handoff" "$tmp/foreign" -- --//agent_runner:secret=X 2>/dev/null &&
    fail "another user's directory accepted"
  [[ ! -e "$tmp/foreign/X" ]] || fail "wrote into another user's directory"
fi

(( failures == 0 )) && echo PASS || { echo "$failures failure(s)"; exit 1; }
