#!/usr/bin/env python3
"""Misbehaving test bot: grabs memory 64 MiB at a time until it is stopped."""
import sys

hoard = []
for line in sys.stdin:
    if '"turn"' in line:
        while True:
            hoard.append(bytearray(64 * 1024 * 1024))
