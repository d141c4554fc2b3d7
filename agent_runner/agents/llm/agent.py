#!/usr/bin/env python3
"""An example LLM agent: asks an OpenAI-compatible chat-completions API for a
solution script, runs it, and falls back to the sample submission when the
script fails. Standard library only, so that it shows what the sandbox gives
an agent that calls a model:

- the network reaches only the hosts named by --//agent_runner:allowed_hosts,
  through the proxy that HTTP_PROXY / HTTPS_PROXY name (urllib, requests,
  httpx and the OpenAI SDK all read them); the first allowed host is taken as
  the API (https on port 443, http on any other port);
- the API key arrives as the secret EXAMPLE_API_KEY (--//agent_runner:secret),
  in the environment only;
- validate_submission.sh checks the submission's format from public data;
- code/ and logs/ are kept with the run's outputs for audits.
"""

import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request

WORKSPACE = pathlib.Path(os.environ.get("MLEBENCH_WORKSPACE", "."))
DATA = pathlib.Path(os.environ["MLEBENCH_DATA_DIR"])
CODE = pathlib.Path(os.environ["MLEBENCH_CODE_DIR"])
LOGS = pathlib.Path(os.environ["MLEBENCH_LOGS_DIR"])
SUBMISSION = pathlib.Path(os.environ["MLEBENCH_SUBMISSION_DIR"]) / "submission.csv"
SAMPLE = pathlib.Path(os.environ["MLEBENCH_SAMPLE_SUBMISSION"])


def log(message):
    print(f"llm_agent: {message}", flush=True)


def api_base():
    hosts = [h for h in os.environ.get("MLEBENCH_ALLOWED_HOSTS", "").split(",") if h]
    if not hosts:
        return None
    host, port = hosts[0].rsplit(":", 1)
    scheme = "https" if port == "443" else "http"
    return f"{scheme}://{host}:{port}/v1"


def ask_model(base, key, prompt):
    body = json.dumps({
        "model": os.environ.get("EXAMPLE_MODEL", "example-model"),
        "messages": [
            {"role": "system", "content": "You write one Python script that solves a "
             "Kaggle task and writes submission/submission.csv. Answer with the script "
             "in one ```python block."},
            {"role": "user", "content": prompt},
        ],
        "temperature": 0,
    }).encode()
    request = urllib.request.Request(
        f"{base}/chat/completions", data=body, method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=120) as response:
        reply = json.load(response)
    return reply["choices"][0]["message"]["content"]


def direct_connection_refused(base):
    """The API without the proxy: the sandbox has no route anywhere."""
    host, port = re.match(r"https?://([^/:]+):(\d+)", base).groups()
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
        return False
    except OSError:
        return True


def main():
    CODE.mkdir(exist_ok=True)
    LOGS.mkdir(exist_ok=True)
    base = api_base()
    key = os.environ.get("EXAMPLE_API_KEY")
    script = None
    if base and key:
        log(f"asking the model at {base} (through {os.environ.get('HTTPS_PROXY', 'no proxy')})")
        description = (DATA / "description.md").read_text(errors="replace")[:6000]
        header = SAMPLE.read_text(errors="replace").splitlines()[0]
        prompt = (f"Task:\n{description}\n\nFiles in data/: "
                  f"{sorted(p.name for p in DATA.iterdir())}\n"
                  f"The submission's header: {header}\n")
        try:
            answer = ask_model(base, key, prompt)
            (LOGS / "model_answer.md").write_text(answer)
            found = re.search(r"```python\n(.*?)```", answer, re.S)
            script = found.group(1) if found else None
        except (urllib.error.URLError, OSError, KeyError, ValueError) as error:
            log(f"the model could not be asked: {error}")
        log("direct connection to the API without the proxy: "
            + ("refused" if direct_connection_refused(base) else "OPEN"))
    else:
        log("no API: name it with --//agent_runner:allowed_hosts and give "
            "--//agent_runner:secret=EXAMPLE_API_KEY")
    if script:
        (CODE / "solution.py").write_text(script)
        result = subprocess.run([sys.executable, str(CODE / "solution.py")], cwd=WORKSPACE,
                                capture_output=True, text=True, timeout=600)
        (LOGS / "solution.log").write_text(result.stdout + result.stderr)
        log(f"the model's script exited with {result.returncode}")
    validator = WORKSPACE / "validate_submission.sh"
    if SUBMISSION.is_file() and validator.is_file():
        # The format check agents get (public data only: never a score).
        check = subprocess.run([str(validator), str(SUBMISSION)], capture_output=True, text=True)
        log(f"validate_submission.sh: {check.stdout.strip()}")
        if check.returncode != 0:
            SUBMISSION.unlink()
    if not SUBMISSION.is_file():
        log("no valid submission from the model: submitting the sample submission")
        shutil.copyfile(SAMPLE, SUBMISSION)
    log("done")


if __name__ == "__main__":
    main()
