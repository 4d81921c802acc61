#!/usr/bin/env python3
"""Misbehaving test bot: answers a turn with a line of 200 KiB."""
import sys

for line in sys.stdin:
    if '"turn"' in line:
        sys.stdout.write("7" * (200 * 1024) + "\n")
        sys.stdout.flush()
