"""An independent restatement, for tests, of the BSON subset Kaggle's Cdiscount
files use (Debian's Python has no `bson` module): a document is an int32
length, elements (type byte, NUL-terminated key, value) and a NUL."""
import struct


def _cstring(b, i):
    j = b.index(b"\0", i)
    return b[i:j].decode("utf-8"), j + 1


def decode(b):
    """Returns [(key, type, value_bytes)] of the document `b` (exactly one)."""
    (n,) = struct.unpack_from("<i", b, 0)
    assert n == len(b) and b[-1] == 0, (n, len(b))
    out, i = [], 4
    while i < n - 1:
        t = b[i]
        key, i = _cstring(b, i + 1)
        if t == 0x10:
            size = 4
        elif t in (0x01, 0x12):
            size = 8
        elif t in (0x03, 0x04):
            (size,) = struct.unpack_from("<i", b, i)
            decode(b[i : i + size])
        elif t == 0x05:
            size = 5 + struct.unpack_from("<i", b, i)[0]
        elif t == 0x02:
            size = 4 + struct.unpack_from("<i", b, i)[0]
            b[i + 4 : i + size - 1].decode("utf-8")
        else:
            raise ValueError(f"type {t:#x} not expected in Cdiscount files")
        out.append((key, t, b[i : i + size]))
        i += size
    assert i == n - 1
    return out


def encode(elements):
    body = b"".join(bytes([t]) + k.encode() + b"\0" + v for k, t, v in elements)
    return struct.pack("<i", len(body) + 5) + body + b"\0"


def read_file(path):
    """Every document of a .bson file, as (raw bytes, decoded elements)."""
    data = open(path, "rb").read()
    docs, i = [], 0
    while i < len(data):
        (n,) = struct.unpack_from("<i", data, i)
        docs.append((data[i : i + n], decode(data[i : i + n])))
        i += n
    return docs


def value(elements, key):
    for k, t, v in elements:
        if k == key:
            if t == 0x10:
                return struct.unpack("<i", v)[0]
            if t == 0x12:
                return struct.unpack("<q", v)[0]
            if t == 0x05:
                return v[5:]
            if t in (0x03, 0x04):
                return decode(v)
            return v
    raise KeyError(key)
