#!/usr/bin/env python3
"""An Intervalo bot that spreads out (bot protocol v1, standard library only).

It plays the middle of the longest run of empty cells, so its pieces sit
between as many future choices as possible; between runs of equal length
it prefers the one nearest the centre, and between two middles of an even
run it picks one at random, seeded from the game's seed.
"""
import json
import random
import sys


def runs(strip):
    start = None
    for i, c in enumerate(strip + "#"):
        if c == "." and start is None:
            start = i
        elif c != "." and start is not None:
            yield start, i - 1
            start = None


def choose(strip, rng):
    n = len(strip)
    first, last = max(runs(strip), key=lambda r: (r[1] - r[0], -abs(r[0] + r[1] + 1 - n)))
    middles = sorted({(first + last) // 2, (first + last + 1) // 2})
    return rng.choice(middles) + 1


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            rng = random.Random("%s/%s" % (message["seed"], message["seat"]))
        elif kind == "turn":
            print(choose(message["view"]["strip"], rng), flush=True)
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
