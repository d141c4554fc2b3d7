#!/usr/bin/env bash
# Measures that a secret leaks nowhere (docs/agents.md, "Secrets"): a nested
# Bazel on a copy of this workspace runs the LLM example agent
# (agent_runner/agents/llm) on spaceship-titanic with network allowlist,
# against a local OpenAI-compatible stand-in that accepts only a random key,
# given as --//agent_runner:secret=EXAMPLE_API_KEY from the invoking
# environment, the way ./bazelw hands it over (tools/secrets/with_secrets.sh;
# the other way, a secrets file, is a path on the command line and the runner
# reads it like the handed-over files). The agent must get its answer with the key;
# then the key must appear in none of: the console, the build event stream,
# the execution log, anything under the nested output root (action keys and
# the action cache, every output, test logs and XML, outputs.zip, Bazel's own
# logs) and the disk cache entries the build wrote. A positive control shows
# that the search finds the key where it is (this script's own environment).
set -euo pipefail

source bazel/nested_bazel.sh
nested_workspace "$TEST_TMPDIR/ws"

out="$TEST_TMPDIR/out"
mkdir -p "$out"
touch "$out/start"
key="sk-leak-probe-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"

STAND_IN_API_KEY="$key" /usr/bin/python3 agent_runner/agents/llm/openai_stand_in.py \
  --port_file "$out/port" --requests "$out/requests.jsonl" &
stand_in=$!
trap 'kill $stand_in 2>/dev/null || true' EXIT
for _ in $(seq 200); do [[ -s "$out/port" ]] && break; sleep 0.05; done
port="$(cat "$out/port")"

# The agent, grade and test results go to the disk cache too (the nested
# options keep the pipeline's steps out of it for the action-counting tests).
if ! EXAMPLE_API_KEY="$key" bash tools/secrets/with_secrets.sh -- \
    "${NESTED_BAZEL[@]}" --batch test "${NESTED_BUILD_OPTIONS[@]}" \
    --modify_execution_info= \
    --//agent_runner:agent=//agent_runner/agents/llm \
    --//agent_runner:allowed_hosts="127.0.0.1:$port" \
    --//agent_runner:secret=EXAMPLE_API_KEY \
    --execution_log_json_file="$out/exec.json" \
    --build_event_json_file="$out/bep.json" \
    //competitions/spaceship-titanic:spaceship-titanic >"$out/console.txt" 2>&1; then
  cat "$out/console.txt"
  echo "FAIL: the nested bazel test failed" >&2
  exit 1
fi

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
grep -q '"authorized": true' "$out/requests.jsonl" ||
  fail "the stand-in got no request with the key: $(cat "$out/requests.jsonl" 2>/dev/null)"
log="$("${NESTED_BAZEL[@]}" --batch info bazel-bin 2>/dev/null)/competitions/spaceship-titanic/spaceship-titanic_run/run-0/agent.log"
grep -q "the model's script exited with 0" "$log" || fail "the model's script did not run: $(cat "$log")"
grep -q "validate_submission.sh: Submission is valid." "$log" ||
  fail "validate_submission.sh did not pass the submission: $(cat "$log")"

# The positive control: the search finds the key where it is.
printf 'EXAMPLE_API_KEY=%s\n' "$key" > "$out/control.txt"
grep -qF -- "$key" "$out/control.txt" || fail "the search does not find the key where it is"
rm -f "$out/control.txt"
# The handed-over value is gone with the command.
if grep -rqF -- "$key" "/dev/shm/mlebench-secrets-$(id -u)" 2>/dev/null; then
  fail "the handed-over value outlived the command"
fi

searched=0
leaks() {  # FILES... (NUL-separated on stdin): the files holding the key
  xargs -0 -r grep -lF -- "$key" 2>/dev/null || true
}
for file in "$out/console.txt" "$out/bep.json" "$out/exec.json"; do
  searched=$((searched + 1))
  if grep -qF -- "$key" "$file"; then fail "the key is in $(basename "$file")"; fi
done
found="$(find "$TEST_TMPDIR/root" -type f -print0 | leaks)"
searched=$((searched + $(find "$TEST_TMPDIR/root" -type f | wc -l)))
[[ -z "$found" ]] || fail "the key is in the nested output root: $found"
found="$(find "$nested_disk_cache" -type f -newer "$out/start" -print0 | leaks)"
written="$(find "$nested_disk_cache" -type f -newer "$out/start" | wc -l)"
searched=$((searched + written))
[[ -z "$found" ]] || fail "the key is in the disk cache: $found"
(( written > 0 )) || fail "the build wrote nothing to the disk cache: the search there proves nothing"
# Every output of the run: the agent's code and logs were kept, and the key
# is not among them (the runner redacts what the agent itself wrote).
echo "searched $searched files ($written disk cache entries written by this build)"

if (( failures > 0 )); then
  echo "$failures failure(s)"
  exit 1
fi
echo PASS
