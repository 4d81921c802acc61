#!/usr/bin/env python3
"""Misbehaving test bot: exits with status 3 when asked for its first move."""
import sys

for line in sys.stdin:
    if '"turn"' in line:
        sys.stderr.write("giving up\n")
        sys.exit(3)
