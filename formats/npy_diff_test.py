"""Writes random .npy cases for npy_diff_test.cc with numpy 1.26.4 (upstream's pin).

For case i in [0, n): i.npy is np.save of a random array (random dtype,
shape, byte order and memory layout); i.rows holds row positions and
i.take.npy is np.save(a[rows]) (absent for 0-d arrays); i.shape holds
"descr|fortran|d0,d1,..." as np.load reports it. i.bad is a mangled copy of
i.npy, with i.bad.ok written when np.load accepts it.

Usage: npy_diff_test.py OUT_DIR N SEED
"""
import io
import os
import sys

import numpy as np

out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.RandomState(seed)
DTYPES = ["<f4", "<f8", ">f4", "<f2", "<i8", ">i4", "<i2", "|i1", "|u1", "<u4", "|b1",
          "<c8", "<U1", "<U2", ">U3", "|S1", "|S5", "|V3", "=f8", "<f16"]


def random_array():
    dt = np.dtype(DTYPES[rng.randint(len(DTYPES))])
    ndim = rng.choice([0, 1, 1, 2, 2, 3])
    shape = tuple(int(rng.choice([0, 1, 2, 3, 7, 40, 1000 if ndim == 1 else 5])) for _ in range(ndim))
    raw = rng.bytes(int(np.prod(shape)) * dt.itemsize)
    if dt.kind == "b":
        raw = bytes(b & 1 for b in raw)
    if dt.kind == "U":
        # valid code points only: ASCII digits and letters
        chars = rng.choice(list("0123456789abcXYZ"), size=int(np.prod(shape)) * (dt.itemsize // 4))
        a = np.array(["".join(chars[i:i + dt.itemsize // 4]) for i in range(0, len(chars), dt.itemsize // 4)] or [], dtype=dt)
        return a.reshape(shape)
    a = np.frombuffer(raw, dtype=dt).reshape(shape) if raw or shape else np.zeros(shape, dtype=dt)
    if ndim >= 2 and rng.rand() < 0.3:
        a = np.asfortranarray(a)
    return a


for i in range(n):
    a = random_array()
    path = os.path.join(out, f"{i}.npy")
    np.save(path, a)
    b = np.load(path)
    with open(os.path.join(out, f"{i}.shape"), "w") as f:
        f.write(f"{b.dtype.str}|{int(np.isfortran(b) and b.ndim > 1)}|{','.join(map(str, b.shape))}")
    if a.ndim >= 1 and not (np.isfortran(b) and b.ndim > 1) and a.shape[0] > 0:
        rows = [int(r) for r in rng.randint(-a.shape[0], a.shape[0], size=rng.randint(0, 6))]
        with open(os.path.join(out, f"{i}.rows"), "w") as f:
            f.write(" ".join(map(str, rows)))
        np.save(os.path.join(out, f"{i}.take.npy"), b[rows])
    data = bytearray(open(path, "rb").read())
    kind = rng.randint(6)
    if kind == 0 and len(data) > 0:
        data = data[: rng.randint(len(data))]
    elif kind == 1:
        data[6] = rng.choice([0, 1, 2, 3, 4])
    elif kind == 2:
        data[rng.randint(6)] ^= 0x20
    elif kind == 3:
        data = data.replace(b"'shape'", b"'shapf'")
    elif kind == 4:
        data = data.replace(b"'fortran_order': False", b"'fortran_order': 0    ")
    else:
        data = data.replace(b"'descr': '", b"'descr': '<i3', 'x': '")
    bad = os.path.join(out, f"{i}.bad")
    with open(bad, "wb") as f:
        f.write(bytes(data))
    try:
        np.load(bad)
        open(bad + ".ok", "w").close()
    except Exception:
        pass
