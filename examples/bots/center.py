#!/usr/bin/env python3
"""A centre-seeking Intervalo bot (bot protocol v1, standard library only).

It takes the empty cell nearest the middle of the strip; between two cells
equally near it picks one at random, seeded from the game's seed.
"""
import json
import random
import sys


def choose(strip, rng):
    n = len(strip)
    empty = [i for i, c in enumerate(strip) if c == "."]
    # Twice the distance from the centre keeps it in whole numbers.
    best = min(abs(2 * i + 1 - n) for i in empty)
    ties = [i for i in empty if abs(2 * i + 1 - n) == best]
    return rng.choice(ties) + 1


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            rng = random.Random(message["seed"] * 1000 + message["seat"])
        elif kind == "turn":
            print(choose(message["view"]["strip"], rng), flush=True)
        elif kind == "end":
            sys.stderr.write("game over: %s\n" % message["result"])
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
