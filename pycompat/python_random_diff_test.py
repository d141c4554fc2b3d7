"""Reference side of python_random_diff_test: CPython's random module.

Usage: python_random_diff_test.py CASES OUT. Each line of CASES is one case
("<kind> <seed> <args...>"); the matching line of OUT holds the values drawn
(space-separated ints, floats as float.hex()), or "ERROR" if Python raised
ValueError or IndexError.
"""

import random
import sys


def run(fields):
    kind, seed = fields[0], int(fields[1])
    args = [int(x) for x in fields[2:]]
    rng = random.Random(seed)
    if kind == "random":
        return " ".join(rng.random().hex() for _ in range(args[0]))
    if kind == "bits":
        return " ".join(str(rng.getrandbits(args[0])) for _ in range(args[1]))
    if kind == "shuffle":
        x = list(range(args[0]))
        rng.shuffle(x)
        return " ".join(map(str, x))
    if kind == "sample":
        return " ".join(map(str, rng.sample(range(args[0]), args[1])))
    if kind == "module_sample":
        # The module-level functions after random.seed(n).
        random.seed(seed)
        return " ".join(map(str, random.sample(range(args[0]), args[1])))
    if kind == "randrange1":
        return " ".join(str(rng.randrange(args[0])) for _ in range(args[1]))
    if kind == "randrange":
        return " ".join(str(rng.randrange(args[0], args[1], args[2])) for _ in range(args[3]))
    if kind == "randint":
        return " ".join(str(rng.randint(args[0], args[1])) for _ in range(args[2]))
    if kind == "choice":
        seq = list(range(args[0]))
        return " ".join(str(rng.choice(seq)) for _ in range(args[1]))
    raise SystemExit(f"unknown case kind {kind!r}")


def main():
    cases_path, out_path = sys.argv[1], sys.argv[2]
    with open(cases_path) as cases, open(out_path, "w") as out:
        for line in cases:
            try:
                result = run(line.split())
            except (ValueError, IndexError):
                result = "ERROR"
            out.write(result + "\n")


if __name__ == "__main__":
    main()
