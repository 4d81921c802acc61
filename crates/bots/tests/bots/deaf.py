#!/usr/bin/env python3
"""Misbehaving test bot: answers "pass" twenty times a second and never
reads its input, so the referee's writes to it block once the pipe is
full."""
import time

while True:
    print("pass", flush=True)
    time.sleep(0.05)
