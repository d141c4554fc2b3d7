#!/bin/sh
# The interpreter of py_binary targets (see BUILD.bazel): the python3 first on
# PATH. Inside the sandbox that is the agent environment's (mle_agent's
# `environment`) when it has one, else Debian's /usr/bin/python3.
exec python3 "$@"
