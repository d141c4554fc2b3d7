#!/bin/sh
# Test agent that overstays its time limit: writes a submission, starts a
# background child, then sleeps forever while ignoring SIGTERM, so the runner
# has to SIGKILL the whole process group. With an argument, writes the pids of
# itself and its child to that file (one a line) before sleeping.
trap '' TERM
echo "id,prediction" > submission/submission.csv
echo "0,1" >> submission/submission.csv
sleep 100000 &
if [ -n "$1" ]; then
  printf '%s\n%s\n' "$$" "$!" > "$1.tmp" && mv "$1.tmp" "$1"
fi
echo "sleeper: submission written, now ignoring SIGTERM"
while :; do sleep 1; done
