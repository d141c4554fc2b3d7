#!/usr/bin/env python3
"""A stand-in for an OpenAI-compatible API, for tests and the LLM example:
POST /v1/chat/completions answers with a fixed solution script, GET
/v1/models lists one model. Requests must carry `Authorization: Bearer KEY`
(KEY from the environment variable STAND_IN_API_KEY); each request is
appended to --requests as one JSON line (path, whether the key was right,
the model). Listens on 127.0.0.1, on --port (0: a free one), and writes the
port to --port_file once it listens.

  openai_stand_in.py --port_file FILE --requests FILE [--port N]
"""

import argparse
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# What the "model" writes: a script that submits the sample submission's rows
# (valid by construction; the point is the way there, not the score).
SOLUTION = '''```python
import csv, os, collections
sample = os.environ["MLEBENCH_SAMPLE_SUBMISSION"]
out = os.path.join(os.environ["MLEBENCH_SUBMISSION_DIR"], "submission.csv")
with open(sample, newline="") as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
with open(out, "w", newline="") as f:
    writer = csv.writer(f, lineterminator="\\n")
    writer.writerow(header)
    for row in body:
        writer.writerow(row)
print("wrote", len(body), "rows")
```'''


class Handler(BaseHTTPRequestHandler):
    key = None
    requests_file = None
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def _record(self, authorized, model=None):
        with self.lock, open(self.requests_file, "a") as f:
            f.write(json.dumps({"path": self.path, "authorized": authorized,
                                "model": model}) + "\n")

    def _reply(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _authorized(self):
        return self.headers.get("Authorization") == f"Bearer {self.key}"

    def do_GET(self):
        authorized = self._authorized()
        self._record(authorized)
        if not authorized:
            return self._reply(401, {"error": {"message": "invalid API key"}})
        if self.path == "/v1/models":
            return self._reply(200, {"object": "list", "data": [{"id": "example-model"}]})
        return self._reply(404, {"error": {"message": "not found"}})

    def do_POST(self):
        length = min(int(self.headers.get("Content-Length", "0") or 0), 1 << 20)
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            request = {}
        authorized = self._authorized()
        self._record(authorized, request.get("model"))
        if not authorized:
            return self._reply(401, {"error": {"message": "invalid API key"}})
        if self.path != "/v1/chat/completions":
            return self._reply(404, {"error": {"message": "not found"}})
        return self._reply(200, {
            "id": "chatcmpl-stand-in", "object": "chat.completion",
            "model": request.get("model", "example-model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": SOLUTION}}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        })


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port_file", required=True)
    parser.add_argument("--requests", required=True)
    args = parser.parse_args()
    Handler.key = os.environ["STAND_IN_API_KEY"]
    Handler.requests_file = args.requests
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
