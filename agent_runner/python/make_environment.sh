#!/usr/bin/env bash
# Makes (once per machine, lock and interpreter) the locked Python environment
# of an agent and prints its directory. Called by the python_environment
# repository rule (environment.bzl); usable by hand to see what it does:
#
#   make_environment.sh LOCK NAME
#
# The environment is a virtual environment of Debian's /usr/bin/python3 in
# ${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/agent-python/<digest of the lock
# and interpreter>, installed from PyPI with exact versions and hashes, wheels
# only, no dependencies beyond the lock. It is made to be mounted read-only at
# /opt/mlebench/python inside the sandbox and to be the same bytes on every
# machine, because its files are inputs of the agent actions (and so of their
# cache keys):
#   - byte code is compiled with unchecked hashes (no timestamps in it);
#   - it has no pip or setuptools (a throwaway pip installs into it, so
#     nothing of the packages runs on the host), and files whose names hold a
#     space (Bazel 4 labels cannot; scipy ships one as test data), listed in
#     .mlebench-removed-files;
#   - scripts in bin/ start with #!/opt/mlebench/python/bin/python3, the
#     activate scripts (which name the directory) are removed, and
#     pyvenv.cfg is rewritten without the directory;
#   - no file may name the directory it was made in: that is checked.
# A half-made environment is never used: .complete is written last, under a
# lock that concurrent builds share.
set -euo pipefail
lock="$1"
name="$2"
python=/usr/bin/python3
mount_point=/opt/mlebench/python
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Where packages come from: PyPI, unless the user (never the lock) says
# otherwise with --repo_env=MLEBENCH_PIP_INDEX_URL=...
index="${MLEBENCH_PIP_INDEX_URL:-https://pypi.org/simple}"
[[ -x "$python" ]] || { echo "no $python: install Debian's python3 and python3-venv" >&2; exit 1; }
digest="$({ cat "$lock"; "$python" -c 'import sys; print(sys.version)'; echo "$index"; cat "$0" "$here/check_lock.py"; } |
  sha256sum | cut -c1-16)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/agent-python"
env="$cache/$digest"
if [[ -f "$env/.complete" ]]; then
  echo "$env"
  exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [[ ! -f "$env/.complete" ]]; then
  echo "making the Python environment of $name from PyPI in $env" >&2
  rm -rf "$env"
  fail() { echo "cannot make the Python environment of $name from $lock: $*" >&2; rm -rf "$env" "${boot:-}"; exit 1; }
  # Pins with hashes and nothing else: no pip option from the lock.
  "$python" -I -S "$here/check_lock.py" "$lock" >&2 || fail "the lock is not only pins with hashes"
  # The environment gets no pip: a throwaway one installs into it (--prefix),
  # so that nothing of the installed packages (their .pth files included)
  # ever runs on the host.
  "$python" -m venv --without-pip "$env"
  boot="$(mktemp -d)"
  "$python" -m venv "$boot" || fail "cannot make a virtual environment for pip (python3-venv?)"
  "$boot/bin/python3" -I -m pip install --quiet --disable-pip-version-check --no-compile \
    --no-deps --require-hashes --only-binary=:all: --index-url "$index" \
    --prefix "$env" -r "$lock" >&2 ||
    fail "pip install failed (PyPI unreachable, or a hash or version that PyPI does not have?)"
  rm -rf "$boot"
  # lib64 is a link to lib: Bazel would take every file twice.
  rm -f "$env"/bin/activate* "$env"/bin/Activate.ps1 "$env/lib64"
  # Scripts of the installed packages name the interpreter they were made for.
  for script in "$env"/bin/*; do
    [[ -L "$script" || ! -f "$script" ]] && continue
    if head -c 2 "$script" | grep -q '^#!'; then
      sed -i "1s|^#!.*|#!$mount_point/bin/python3|" "$script"
    fi
  done
  version="$("$python" -I -S -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
  printf 'home = /usr/bin\ninclude-system-site-packages = false\nversion = %s\n' \
    "$version" >"$env/pyvenv.cfg"
  site="$env/lib/python${version%.*}/site-packages"
  "$python" -I -S -m compileall -q -j 0 --invalidation-mode unchecked-hash -s "$env" \
    -p "$mount_point" "$env/lib" >/dev/null || fail "cannot compile the byte code"
  "$python" -I -S "$here/check_lock.py" "$lock" "$site" >&2 ||
    fail "the installed packages differ from the lock"
  # Nothing may name this directory (pip records relative paths; scripts
  # were rewritten above).
  if grep -rlF --binary-files=text "$env" "$env" >/dev/null 2>&1; then
    fail "files name the directory they were made in: $(grep -rlF "$env" "$env" | head -3)"
  fi
  # Bazel 4 cannot take a file name with a space as an input; packages ship
  # a few as test data (scipy's "Transparent Busy.ani"). They are removed,
  # and listed.
  (cd "$env" && find . -name '* *' -print | LC_ALL=C sort) >"$env/.mlebench-removed-files"
  (cd "$env" && find . -depth -name '* *' -exec rm -rf {} +)
  sort_key="$(cat "$lock"; echo "python $version")"
  printf '%s\n' "$sort_key" | sha256sum | cut -c1-64 >"$env/.mlebench-environment-digest"
  touch "$env/.complete"
fi
echo "$env"
