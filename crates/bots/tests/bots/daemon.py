#!/usr/bin/env python3
"""Misbehaving test bot: plays Intervalo's lowest empty cell, but first
leaves a daemon behind (a grandchild that double-forks and calls setsid,
so it is in neither the bot's process group nor its session) and a child
that keeps forking short-lived children. Every process it starts carries
its arguments (a marker for the test) in its command line."""
import json
import os
import sys
import time


def daemon():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:
                time.sleep(1)
        os._exit(0)


def breeder():
    if os.fork() == 0:
        while True:
            if os.fork() == 0:
                time.sleep(0.2)
                os._exit(0)
            time.sleep(0.1)


started = False
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start" and not started:
        started = True
        daemon()
        breeder()
    elif message["type"] == "turn":
        strip = message["view"]["strip"]
        print(strip.index(".") + 1, flush=True)
    elif message["type"] == "quit":
        break
