"""Reference side of python_json_diff_test: Python's json module.

Usage: python_json_diff_test.py OUT_DIR COUNT SEED. Writes COUNT cases:
OUT_DIR/<i>.json holds the input bytes, a random JSON document written in
one of many legal spellings (random whitespace, escapes or raw characters,
number spellings, repeated keys), or a mangled one. For input that
json.loads(data.decode("utf-8")) accepts, <i>.compact and <i>.indent4 hold
json.dumps of the result without indent and with indent=4; otherwise
<i>.error holds the exception.
"""

import json
import math
import random
import struct
import sys
from pathlib import Path

WHITESPACE = " \t\n\r"
SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                 "\t": "\\t", "/": "\\/"}


def random_char(rng):
    kind = rng.random()
    if kind < 0.55:
        return chr(rng.randrange(0x20, 0x7F))
    if kind < 0.65:
        return rng.choice('"\\/\b\f\n\r\t\x00\x01\x1f\x7f')
    if kind < 0.8:
        return chr(rng.randrange(0x80, 0x800))
    if kind < 0.9:
        return chr(rng.choice([rng.randrange(0x800, 0xD800), rng.randrange(0xE000, 0x10000)]))
    if kind < 0.96:
        return chr(rng.randrange(0x10000, 0x110000))
    return chr(rng.randrange(0xD800, 0xE000))  # a lone surrogate


def random_string(rng):
    return "".join(random_char(rng) for _ in range(rng.choice([0, 1, 2, 5, 12])))


def random_float(rng):
    kind = rng.random()
    if kind < 0.1:
        return rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 1e16, 1e-05, 0.1, 1e22,
                           5e-324, 1.7976931348623157e308, 123456789.0])
    if kind < 0.4:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if kind < 0.7:
        return round(rng.uniform(-1e6, 1e6), rng.randrange(0, 8))
    return rng.random() * 10 ** rng.randrange(-30, 30)


def random_int(rng):
    kind = rng.random()
    if kind < 0.6:
        return rng.randrange(-1000, 1000)
    if kind < 0.9:
        return rng.randrange(-2**64, 2**64)
    return rng.randrange(-10**60, 10**60)


def random_value(rng, depth):
    kind = rng.random()
    if depth < 4 and kind < 0.3:
        if rng.random() < 0.5:
            return [random_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 4]))]
        return {random_string(rng): random_value(rng, depth + 1)
                for _ in range(rng.choice([0, 1, 2, 4]))}
    kind = rng.random()
    if kind < 0.1:
        return rng.choice([None, True, False])
    if kind < 0.35:
        return random_int(rng)
    if kind < 0.6:
        return random_float(rng)
    return random_string(rng)


def ws(rng):
    return "".join(rng.choice(WHITESPACE) for _ in range(rng.choice([0, 0, 0, 1, 3])))


def spell_string(rng, s):
    out = ['"']
    chars = list(s)
    i = 0
    while i < len(chars):
        c = chars[i]
        code = ord(c)
        forced = code < 0x20 or c in '"\\' or 0xD800 <= code < 0xE000
        choice = rng.random()
        if c in SHORT_ESCAPES and (forced or choice < 0.5) and rng.random() < 0.7:
            out.append(SHORT_ESCAPES[c])
        elif forced or choice < 0.3:
            if code >= 0x10000:
                v = code - 0x10000
                units = [0xD800 | (v >> 10), 0xDC00 | (v & 0x3FF)]
            else:
                units = [code]
            for unit in units:
                digits = "%04x" % unit
                out.append("\\u" + (digits.upper() if rng.random() < 0.5 else digits))
        else:
            out.append(c)
        i += 1
    out.append('"')
    return "".join(out)


def spell_float(rng, x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return rng.choice(["Infinity", "1e400", "9e99999"]) if x > 0 else rng.choice(
            ["-Infinity", "-1e400"])
    text = repr(x)
    if "e" not in text and "." in text and rng.random() < 0.3:
        text += "0" * rng.randrange(1, 4)
    if rng.random() < 0.3:
        text = "%.17e" % x
        if rng.random() < 0.5:
            text = text.replace("e", "E").replace("E+", "E")
    return text


def spell(rng, value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return "-0" if value == 0 and rng.random() < 0.2 else str(value)
    if isinstance(value, float):
        return spell_float(rng, value)
    if isinstance(value, str):
        return spell_string(rng, value)
    if isinstance(value, list):
        if not value:
            return "[" + ws(rng) + "]"
        return "[" + ",".join(ws(rng) + spell(rng, v) + ws(rng) for v in value) + "]"
    members = [(k, v) for k, v in value.items()]
    if members and rng.random() < 0.2:  # a repeated key: first place, last value
        k, _ = rng.choice(members)
        members.append((k, random_value(rng, 4)))
    if not members:
        return "{" + ws(rng) + "}"
    return "{" + ",".join(ws(rng) + spell_string(rng, k) + ws(rng) + ":" + ws(rng) +
                          spell(rng, v) + ws(rng) for k, v in members) + "}"


def mangle(rng, data):
    kind = rng.random()
    pos = rng.randrange(len(data) + 1)
    if kind < 0.3 and data:
        return data[:pos] + data[pos + 1:]
    if kind < 0.6:
        return data[:pos] + bytes([rng.choice(b'{}[]",:\\ 0e.+-aEuNI\t\x01\x7f')]) + data[pos:]
    if kind < 0.7:
        return data[:pos]
    if kind < 0.8:
        return data[:pos] + bytes([rng.randrange(0x80, 0x100)]) + data[pos:]
    if kind < 0.9:
        return b"\xef\xbb\xbf" + data
    return data + rng.choice([b"x", b" ,", b"\n1", b" \t\r\n"])


def main():
    out, count, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    for i in range(count):
        text = ws(rng) + spell(rng, random_value(rng, 0)) + ws(rng)
        data = text.encode("utf-8")
        if rng.random() < 0.3:
            data = mangle(rng, data)
        (out / f"{i}.json").write_bytes(data)
        try:
            value = json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError) as e:  # JSONDecodeError, UnicodeDecodeError
            (out / f"{i}.error").write_text(repr(e))
            continue
        (out / f"{i}.compact").write_text(json.dumps(value))
        (out / f"{i}.indent4").write_text(json.dumps(value, indent=4))


if __name__ == "__main__":
    main()
