#!/bin/sh
# Test agent that succeeds without writing a submission.
exit 0
