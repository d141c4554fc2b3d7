#!/bin/sh
# Tries to reach each target of a file and prints one line per target:
#   port 127.0.0.1:8980 reached|unreachable
#   path /some/file readable|absent
#   writable /some/file writable|refused   (opened for appending; nothing written)
#   content <hex> found <path>|absent
# Lines of the file: "port HOST:PORT", "path PATH", "writable PATH",
# "content HEX DIR..." (a
# run of bytes, such as a stretch of the answers, looked for inside every
# file under the directories: a CAS's blocks, a worker's cache), "#"
# comments. It never fails: what it found is its output.
targets="$1"
while read -r kind a rest; do
  case "$kind" in
    port)
      host="${a%:*}" port="${a##*:}"
      if timeout 3 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null; then
        echo "port $a reached"
      else
        echo "port $a unreachable"
      fi ;;
    path)
      if { [ -d "$a" ] && ls "$a" >/dev/null 2>&1; } ||
         { [ -f "$a" ] && head -c 1 "$a" >/dev/null 2>&1; }; then
        echo "path $a readable"
      else
        echo "path $a absent"
      fi ;;
    writable)
      if [ -e "$a" ] && (: >>"$a") 2>/dev/null; then
        echo "writable $a writable"
      else
        echo "writable $a refused"
      fi ;;
    content)
      found="$(/usr/bin/python3 -I - "$a" $rest 2>/dev/null <<'PY'
import os, sys
needle = bytes.fromhex(sys.argv[1])
for top in sys.argv[2:]:
    for root, _, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    tail = b""
                    while True:
                        chunk = f.read(1 << 24)
                        if not chunk:
                            break
                        if needle in tail + chunk:
                            print(path)
                            sys.exit(0)
                        tail = chunk[-len(needle):]
            except OSError:
                pass
PY
)"
      if [ -n "$found" ]; then echo "content $a found $found"; else echo "content $a absent"; fi ;;
  esac
done < "$targets"
exit 0
