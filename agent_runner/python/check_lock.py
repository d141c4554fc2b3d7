"""Checks an agent's requirements lock, and the environment made from it.

    /usr/bin/python3 -I -S check_lock.py LOCK              # before installing
    /usr/bin/python3 -I -S check_lock.py LOCK SITE_PACKAGES  # after

The lock comes from the agent's package: it is as hostile as the agent's code.
Before anything is installed it must be nothing but pins with hashes - lines
`name==version \\` followed by `--hash=sha256:<64 hex>` lines, comments and
blank lines - so that no pip option in it (an index, --find-links, a local
path, an editable install) can change where packages come from. Afterwards
the packages installed in SITE_PACKAGES must be exactly those of the lock, at
their versions. Run with -I -S by Debian's python3: the environment's own
interpreter, and the .pth files its packages may ship, never run on the host.
Exits 1, saying what is wrong.
"""

import importlib.metadata
import re
import sys

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.-]*)==([A-Za-z0-9_.+!-]+) \\$")
_HASH = re.compile(r"^\s+--hash=sha256:[0-9a-f]{64}( \\)?$")


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path):
    pins, problems, hashes = {}, [], {}
    current = None
    with open(path, encoding="utf-8") as lock:
        for number, line in enumerate(lock.read().splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            pin = _PIN.match(line)
            if pin:
                current = normalize(pin.group(1))
                pins[current] = pin.group(2)
                hashes[current] = 0
                continue
            if _HASH.match(line) and current is not None:
                hashes[current] += 1
                continue
            problems.append(f"{path}:{number}: not a pin or a hash: {line.strip()[:80]!r}")
    if not pins:
        problems.append(f"{path} pins no packages")
    for name, count in hashes.items():
        if count == 0:
            problems.append(f"{path}: {name} has no --hash")
    return pins, problems


def main(argv):
    pins, problems = read_lock(argv[1])
    if len(argv) > 2 and not problems:
        installed = {
            normalize(d.metadata["Name"]): d.version
            for d in importlib.metadata.distributions(path=[argv[2]])
        }
        for name, version in sorted(pins.items()):
            if installed.get(name) != version:
                problems.append(f"{name}: the lock says {version}, installed: {installed.get(name)}")
        for name in sorted(set(installed) - set(pins)):
            problems.append(f"{name} {installed[name]} is installed but not in the lock")
    for problem in problems:
        print(f"check_lock: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
