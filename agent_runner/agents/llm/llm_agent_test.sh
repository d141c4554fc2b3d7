#!/bin/bash
# The LLM example agent under the runner, as `bazel test` runs it, against a
# local stand-in of an OpenAI-compatible API named on its allow-list, with
# its API key as a secret: it gets its answer through the egress proxy, can
# reach nothing directly, and the key appears in none of the run's outputs.
# Then the same with a wrong key: the stand-in refuses it and the agent falls
# back. (What the proxy refuses is runner_test's
# NetworkAllowlistReachesOnlyTheNamedHosts.)
set -uo pipefail

tmp="${TEST_TMPDIR:?}/llm_agent_test"
rm -rf "$tmp"
mkdir -p "$tmp/public"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

printf 'PassengerId,Transported\n0001_01,False\n0002_01,True\n' > "$tmp/public/sample_submission.csv"
printf 'PassengerId,Age,Transported\n0003_01,30,True\n' > "$tmp/public/train.csv"
printf '# Toy\nPredict `Transported`.\n' > "$tmp/description.md"

key="sk-stand-in-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
STAND_IN_API_KEY="$key" /usr/bin/python3 agent_runner/agents/llm/openai_stand_in.py \
  --port_file "$tmp/port" --requests "$tmp/requests.jsonl" &
stand_in=$!
trap 'kill $stand_in 2>/dev/null' EXIT
for _ in $(seq 200); do [[ -s "$tmp/port" ]] && break; sleep 0.05; done
port="$(cat "$tmp/port")" || { echo "FAIL: the stand-in did not start"; exit 1; }

agent="$(readlink -f agent_runner/agents/llm/agent.py)"
env_dir="$(dirname "$(readlink -f "../example_python/env/pyvenv.cfg")")"
run() {  # NAME SECRET_VALUE ALLOWED_HOSTS
  local name="$1"
  mkdir -p "$tmp/$name"
  (umask 077 && printf 'EXAMPLE_API_KEY=%s\n' "$2" > "$tmp/$name.secrets.env")
  agent_runner/run_agent --competition toy --public "$tmp/public" \
    --description "$tmp/description.md" --agent "$agent" --seed 0 --time_limit_s 60 \
    --submission_out "$tmp/$name/submission" --log_out "$tmp/$name/agent.log" \
    --record_out "$tmp/$name/record.json" --artifacts_out "$tmp/$name/artifacts" \
    --sandbox_entry agent_runner/sandbox_entry \
    --allowed_roots "$(dirname "$agent"):$(dirname "$env_dir")" \
    --admission_ledger "$tmp/ledger" \
    --environment "$env_dir" --environment_mount /opt/mlebench/python --environment_path bin \
    --network allowlist --allowed_hosts "$3" \
    --secrets EXAMPLE_API_KEY --secrets_file "$tmp/$name.secrets.env" \
    --secrets_dir "$tmp/no-invocation-secrets" 2> "$tmp/$name.stderr" ||
    fail "$name: run_agent exited $?: $(cat "$tmp/$name.stderr")"
}
record_has() { grep -qF -- "$2" "$tmp/$1/record.json" || fail "$1: record lacks '$2': $(cat "$tmp/$1/record.json")"; }
log_has() { grep -qF -- "$2" "$tmp/$1/agent.log" || fail "$1: log lacks '$2': $(cat "$tmp/$1/agent.log")"; }

# 1. The API on the allow-list, the right key.
run good "$key" "127.0.0.1:$port"
log_has good "asking the model at http://127.0.0.1:$port/v1 (through http://127.0.0.1:3128)"
log_has good "the model's script exited with 0"
log_has good "direct connection to the API without the proxy: refused"
cmp -s "$tmp/good/submission/submission.csv" "$tmp/public/sample_submission.csv" ||
  fail "good: the model's script did not write the expected submission"
[[ "$(grep -c '"authorized": true' "$tmp/requests.jsonl")" == 1 ]] ||
  fail "good: the stand-in did not get one authorized request: $(cat "$tmp/requests.jsonl")"
record_has good '"network": "allowlist"'
record_has good "\"allowed_hosts\": [\"127.0.0.1:$port\"]"
record_has good '"connections_total": 1, "connections_refused": 0'
record_has good "{\"method\": \"POST\", \"host\": \"127.0.0.1\", \"port\": $port, \"allowed\": true, \"status\": 200"
record_has good '"secrets": ["EXAMPLE_API_KEY"]'
[[ -f "$tmp/good/artifacts/code/solution.py" && -f "$tmp/good/artifacts/logs/model_answer.md" ]] ||
  fail "good: the agent's code and logs were not kept: $(find "$tmp/good/artifacts")"
if grep -rqF -- "$key" "$tmp/good" "$tmp/good.stderr"; then
  fail "good: the API key is in the run's outputs: $(grep -rlF -- "$key" "$tmp/good")"
fi

# 2. A wrong key: the stand-in refuses it, the agent falls back.
run wrong_key "sk-wrong-0123456789" "127.0.0.1:$port"
[[ "$(grep -c '"authorized": false' "$tmp/requests.jsonl")" == 1 ]] ||
  fail "wrong_key: the stand-in did not see one unauthorized request: $(cat "$tmp/requests.jsonl")"
log_has wrong_key "the model could not be asked: HTTP Error 401"
log_has wrong_key "no valid submission from the model: submitting the sample submission"

if (( failures > 0 )); then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
