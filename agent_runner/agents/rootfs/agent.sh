#!/bin/sh
# The example of an agent on its own root file system (docs/agents.md, "Agents
# that bring a root file system"): run by the system's /bin/sh (Debian's dash),
# it checks that it runs on that system - Debian's os-release, the marker
# debian_rootfs writes, the system's python3, none of the host's files - and
# writes the sample submission with that python3, which validate_submission.sh
# must find valid. Anything else: no submission, and the gate fails.
set -eu
if [ ! -f /etc/mlebench-rootfs ]; then
  echo "not on a root file system made by debian_rootfs: no /etc/mlebench-rootfs" >&2
  exit 1
fi
echo "root file system: $(tr '\n' ' ' < /etc/mlebench-rootfs)"
. /etc/os-release
echo "system: $PRETTY_NAME"
# The host's bubblewrap is on the machine that runs this, never in the sandbox's
# system (the host's is only at /run/mlebench/host).
for host_only in /usr/bin/bwrap /usr/bin/squid /usr/sbin/squid; do
  if [ -e "$host_only" ]; then
    echo "the host's $host_only is visible: not the agent's own system" >&2
    exit 1
  fi
done
echo "python3: $(command -v python3)"
python3 - <<'PY'
import csv, os, sys

print("python", sys.version.split()[0], "from", sys.executable, flush=True)
if not sys.executable.startswith("/usr/bin/"):
    sys.exit("python3 is not the system's")
with open(os.environ["MLEBENCH_SAMPLE_SUBMISSION"], newline="") as f:
    rows = list(csv.reader(f))
out = os.path.join(os.environ["MLEBENCH_SUBMISSION_DIR"], "submission.csv")
with open(out, "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
print("wrote", len(rows) - 1, "rows of the sample submission to", out)
PY
# The competition's validator (a program of the host's, run through the host's
# loader on this system), when the workspace has it.
if [ -x ./validate_submission.sh ]; then
  verdict="$(./validate_submission.sh submission/submission.csv)" || true
  echo "validate_submission.sh: $verdict"
  if [ "$verdict" != "Submission is valid." ]; then
    rm -f "$MLEBENCH_SUBMISSION_DIR/submission.csv"
    exit 1
  fi
fi
