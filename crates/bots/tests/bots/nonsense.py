#!/usr/bin/env python3
"""Misbehaving test bot: answers every turn with words that are no move."""
import sys

for line in sys.stdin:
    if '"turn"' in line:
        print("hello referee", flush=True)
