#!/usr/bin/env python3
"""Misbehaving test bot: on its first turn it writes without end, to
stderr and to stdout with no newline."""
import sys

for line in sys.stdin:
    if '"turn"' in line:
        chunk = "7" * 4096
        while True:
            sys.stderr.write("noise " * 100 + "\n")
            sys.stdout.write(chunk)
