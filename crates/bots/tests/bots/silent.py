#!/usr/bin/env python3
"""Misbehaving test bot: reads everything and never answers."""
import sys

for line in sys.stdin:
    pass
