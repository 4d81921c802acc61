#!/usr/bin/env python3
"""Misbehaving test bot: on its first turn every process forks again and
again (a fork bomb, doubling up to 2^7 processes, a bound kept so a
machine where process limits do not apply survives the test); each
process writes its id to the file named by the argument and sleeps."""
import os
import sys
import time

path = sys.argv[1]
for line in sys.stdin:
    if '"turn"' in line:
        for _ in range(7):
            try:
                os.fork()
            except OSError:
                pass
        with open(path, "a") as f:
            f.write("%d\n" % os.getpid())
        time.sleep(120)
