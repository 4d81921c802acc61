#!/usr/bin/env python3
"""Misbehaving test bot: starts 20 sleeping children, writes their process
ids to the file named by its argument, and never answers."""
import os
import sys
import time

path = sys.argv[1]
for line in sys.stdin:
    if '"turn"' in line:
        children = []
        for _ in range(20):
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            children.append(pid)
        with open(path, "a") as f:
            f.write(" ".join(str(p) for p in children) + "\n")
        time.sleep(60)
