#!/usr/bin/env python3
"""What a Bazel gRPC log (--experimental_remote_grpc_log) says was uploaded.

    grpc_log_uploads.py LOG [--blobs MANIFEST]

LOG holds length-delimited remote_logging.LogEntry messages (Bazel's
src/main/protobuf/remote_execution_log.proto), read here with a small
protobuf wire-format reader: the standard library has none, and only a few
fields are needed. MANIFEST, when given, lists the blobs of interest (the
data files), one "<sha256 hex> <size>" a line.

Prints one JSON object:
  calls            {method name: number of calls}
  writes           ByteStream Write calls (each uploads one blob)
  write_bytes      bytes they sent
  find_missing     {"asked": digests asked about, "missing": digests the CAS
                    lacked}, summed over FindMissingBlobs calls
  executes         Execute calls
  with --blobs:
  data_writes      Write calls of blobs in MANIFEST
  data_write_bytes bytes they sent
  data_written_twice  blobs of MANIFEST written more than once
  data_asked       blobs of MANIFEST some FindMissingBlobs call asked about
  data_missing     blobs of MANIFEST some FindMissingBlobs call found missing
  other_writes     Write calls of other blobs (the preparer, the action, ...)
"""

import json
import re
import sys
from collections import Counter

# Field numbers (remote_execution_log.proto, remote_execution.proto).
LOG_METHOD, LOG_DETAILS = 3, 4
DETAILS_WRITE, DETAILS_FIND_MISSING = 6, 10
WRITE_RESOURCE_NAMES, WRITE_BYTES_SENT = 1, 3
FIND_REQUEST, FIND_RESPONSE = 1, 2
FIND_REQUEST_DIGESTS, FIND_RESPONSE_MISSING = 2, 2
DIGEST_HASH, DIGEST_SIZE = 1, 2


def varint(data, pos):
    value, shift = 0, 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated varint")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def fields(message):
    """Yields (field number, value): ints for varints, bytes otherwise."""
    pos = 0
    while pos < len(message):
        key, pos = varint(message, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(message, pos)
        elif wire == 1:
            value, pos = message[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = varint(message, pos)
            value, pos = message[pos:pos + length], pos + length
        elif wire == 5:
            value, pos = message[pos:pos + 4], pos + 4
        else:
            raise ValueError("unsupported wire type %d" % wire)
        yield number, value


def first(message, number, default=None):
    for n, value in fields(message):
        if n == number:
            return value
    return default


def every(message, number):
    return [value for n, value in fields(message) if n == number]


def digest_key(digest):
    return "%s/%d" % (first(digest, DIGEST_HASH, b"").decode(), first(digest, DIGEST_SIZE, 0))


def entries(data):
    pos = 0
    while pos < len(data):
        length, pos = varint(data, pos)
        yield data[pos:pos + length]
        pos += length


BLOB = re.compile(r"blobs/([0-9a-f]{64})/([0-9]+)")


def summarize(log_bytes, blobs):
    calls = Counter()
    written = []
    write_bytes = 0
    asked, missing = [], []
    for entry in entries(log_bytes):
        method = first(entry, LOG_METHOD, b"").decode()
        calls[method] += 1
        details = first(entry, LOG_DETAILS, b"")
        if method.endswith("ByteStream/Write"):
            write = first(details, DETAILS_WRITE, b"")
            names = [n.decode() for n in every(write, WRITE_RESOURCE_NAMES) if n]
            match = BLOB.search(names[0]) if names else None
            written.append("%s/%s" % match.groups() if match else "?")
            write_bytes += first(write, WRITE_BYTES_SENT, 0)
        elif method.endswith("ContentAddressableStorage/FindMissingBlobs"):
            find = first(details, DETAILS_FIND_MISSING, b"")
            request = first(find, FIND_REQUEST, b"")
            response = first(find, FIND_RESPONSE, b"")
            asked += [digest_key(d) for d in every(request, FIND_REQUEST_DIGESTS)]
            missing += [digest_key(d) for d in every(response, FIND_RESPONSE_MISSING)]
    summary = {
        "calls": dict(sorted(calls.items())),
        "writes": len(written),
        "write_bytes": write_bytes,
        "find_missing": {"asked": len(asked), "missing": len(missing)},
        "executes": sum(c for m, c in calls.items() if m.endswith("Execution/Execute")),
    }
    if blobs is not None:
        counts = Counter(w for w in written if w in blobs)
        summary.update({
            "data_writes": sum(counts.values()),
            "data_write_bytes": sum(int(w.split("/")[1]) * c for w, c in counts.items()),
            "data_written_twice": sorted(w for w, c in counts.items() if c > 1),
            "data_asked": len(set(asked) & blobs),
            "data_missing": len(set(missing) & blobs),
            "other_writes": len(written) - sum(counts.values()),
        })
    return summary


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--blobs"):
        sys.exit("usage: grpc_log_uploads.py LOG [--blobs MANIFEST]")
    with open(argv[1], "rb") as f:
        log_bytes = f.read()
    blobs = None
    if len(argv) == 4:
        with open(argv[3]) as f:
            blobs = {"%s/%s" % tuple(line.split()) for line in f if line.strip()}
    json.dump(summarize(log_bytes, blobs), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv)
