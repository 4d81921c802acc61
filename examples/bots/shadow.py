#!/usr/bin/env python3
"""An Intervalo bot that crowds its opponent (bot protocol v1, standard
library only).

It plays the empty cell next to the largest block of the opponent's
pieces, on the side nearer the centre, so that an interval reaching into
that block also holds its own new piece; with no opponent piece on the
strip it plays nearest the centre. Ties are broken at random, seeded from
the game's seed.
"""
import json
import random
import sys


def choose(strip, rng):
    n = len(strip)
    empty = [i for i, c in enumerate(strip) if c == "."]

    def block_beside(i, step):
        size, j = 0, i + step
        while 0 <= j < n and strip[j] == "o":
            size += 1
            j += step
        return size

    def value(i):
        return max(block_beside(i, -1), block_beside(i, 1)) - 0.01 * abs(2 * i + 1 - n)

    best = max(value(i) for i in empty)
    ties = [i for i in empty if value(i) >= best - 1e-9]
    return rng.choice(ties) + 1


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
