"""Checks that this interpreter is the reference environment of a lock file.

Usage: python3 check_environment.py requirements.lock

Every package the lock names must be installed at exactly its locked version,
and nothing from Debian's dist-packages (or any other site directory outside
this virtual environment) may be importable. Exits 1, saying what differs,
otherwise. Run by ./bazelw after creating the environment, before marking it
complete.
"""

import importlib.metadata
import re
import sys


def main(lock_path):
    problems = []
    with open(lock_path, encoding="utf-8") as lock:
        pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s\\]+)", lock.read(), re.MULTILINE)
    if not pins:
        problems.append(f"{lock_path} pins no packages")
    for name, version in pins:
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{name} is not installed (locked: {version})")
            continue
        if installed != version:
            problems.append(f"{name} {installed} is installed, the lock says {version}")
    if sys.prefix == sys.base_prefix:
        problems.append(f"{sys.executable} is not a virtual environment")
    for entry in sys.path:
        if "dist-packages" in entry or (
            "site-packages" in entry and not entry.startswith(sys.prefix)
        ):
            problems.append(f"{entry} is on sys.path (outside the environment)")
    for problem in problems:
        print(f"check_environment: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
