#!/usr/bin/env python3
"""A random bot for any Tabula game (bot protocol v1, standard library only).

It answers each turn with a move drawn uniformly from the `legal` list,
seeded from the game's seed so a tournament replays exactly. For Intervalo
without a `legal` list it picks an empty cell of the strip.
"""
import json
import random
import sys


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            rng = random.Random(message["seed"] * 1000 + message["seat"])
        elif kind == "turn":
            legal = message.get("legal")
            if not legal:
                strip = message["view"]["strip"]
                legal = [str(i + 1) for i, c in enumerate(strip) if c == "."]
            print(rng.choice(legal), flush=True)
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
