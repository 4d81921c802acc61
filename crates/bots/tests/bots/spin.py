#!/usr/bin/env python3
"""Misbehaving test bot: on its first turn it computes forever."""
import sys

for line in sys.stdin:
    if '"turn"' in line:
        n = 0
        while True:
            n += 1
