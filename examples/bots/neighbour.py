#!/usr/bin/env python3
"""An Intervalo bot that builds blocks (bot protocol v1, standard library only).

It plays the empty cell with the most of its own pieces next to it (cells
one step away count fully, two steps away half), with a slight pull to
the centre of the strip; ties are broken at random, seeded from the game's
seed. Before it has a piece it plays nearest the centre.
"""
import json
import random
import sys


def choose(strip, rng):
    n = len(strip)
    centre = (n - 1) / 2

    def own(i):
        return 0 <= i < n and strip[i] == "x"

    def value(i):
        near = own(i - 1) + own(i + 1) + 0.5 * (own(i - 2) + own(i + 2))
        return near - 0.02 * abs(i - centre)

    empty = [i for i, c in enumerate(strip) if c == "."]
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
