"""What a baseline agent does, run by seccomp_python_stack_test under the
agents' seccomp filter: pandas, scikit-learn with joblib's threads and loky
processes, lightgbm's OpenMP threads, multiprocessing (fork and spawn, pools,
queues, locks, shared memory), numpy memory maps, subprocesses, local sockets
and name resolution. Prints one "ok <step>" line per step; anything that
fails raises. Also checks that what the filter refuses is refused."""

import errno
import multiprocessing as mp
import os
import socket
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import shared_memory

import numpy as np
import pandas as pd


def ok(step):
    print("ok", step, flush=True)


def square(x):
    return x * x


def main():
    work = tempfile.mkdtemp()
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(2000, 8)), columns=[f"f{i}" for i in range(8)])
    frame["label"] = (frame["f0"] + frame["f1"] > 0).astype(int)
    path = os.path.join(work, "train.csv")
    frame.to_csv(path, index=False)
    frame = pd.read_csv(path)
    ok("pandas")

    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    x, y = frame.drop(columns="label").to_numpy(), frame["label"].to_numpy()
    RandomForestClassifier(n_estimators=20, n_jobs=2, random_state=0).fit(x, y)
    ok("sklearn threads")
    scores = cross_val_score(LogisticRegression(), x, y, cv=4, n_jobs=2)
    assert scores.mean() > 0.9, scores
    ok("sklearn loky processes")

    import lightgbm as lgb
    booster = lgb.train({"objective": "binary", "num_threads": 2, "verbose": -1},
                        lgb.Dataset(x, y), num_boost_round=10)
    assert booster.predict(x[:5]).shape == (5,)
    ok("lightgbm")

    for method in ("fork", "spawn", "forkserver"):
        context = mp.get_context(method)
        with context.Pool(2) as pool:
            assert pool.map(square, range(8)) == [square(i) for i in range(8)]
        queue, lock = context.Queue(), context.Lock()
        with lock:
            queue.put("x")
        assert queue.get(timeout=10) == "x"
        ok("multiprocessing " + method)
    with ProcessPoolExecutor(2) as processes, ThreadPoolExecutor(2) as threads:
        assert list(processes.map(square, range(4))) == [0, 1, 4, 9]
        assert list(threads.map(square, range(4))) == [0, 1, 4, 9]
    memory = shared_memory.SharedMemory(create=True, size=1 << 16)
    memory.buf[0] = 7
    memory.close()
    memory.unlink()
    ok("executors and shared memory")

    mapped = np.memmap(os.path.join(work, "m.bin"), dtype=np.float64, mode="w+", shape=(1 << 16,))
    mapped[:] = 1.0
    mapped.flush()
    assert np.memmap(mapped.filename, dtype=np.float64, mode="r").sum() == 1 << 16
    ok("memmap")

    out = subprocess.run(["/bin/sh", "-c", "echo $((6 * 7)) | cat"], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "42"
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    ok("subprocess and threads")

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname())
    connection, _ = server.accept()
    client.sendall(b"ping")
    assert connection.recv(4) == b"ping"
    for s in (client, connection, server):
        s.close()
    a, b = socket.socketpair()
    a.close()
    b.close()
    socket.getaddrinfo("localhost", 80, flags=socket.AI_ADDRCONFIG)
    ok("sockets")

    # What the filter refuses stays refused inside Python too.
    for family in (socket.AF_VSOCK, socket.AF_PACKET):
        try:
            socket.socket(family, socket.SOCK_STREAM if family == socket.AF_VSOCK else socket.SOCK_RAW)
        except OSError as e:
            assert e.errno == errno.EAFNOSUPPORT, e
        else:
            raise AssertionError("socket family %d was allowed" % family)
    try:
        os.unshare(os.CLONE_NEWUSER) if hasattr(os, "unshare") else None
    except OSError as e:
        assert e.errno == errno.EPERM, e
    ok("refusals")
    print("python stack: all steps ok", flush=True)


if __name__ == "__main__":
    mp.set_start_method("fork")
    main()
