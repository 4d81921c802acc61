#!/usr/bin/env python3
"""The anchor of the games-per-second benchmark: a straightforward Python
referee playing Intervalo (64 cells) between a random bot and a
centre-seeking bot, the same logic as the built-in `random` and `center`.
Prints games per second for the number of games given, of wall-clock time
and of CPU time."""
import random
import sys
import time


def center(strip, rng):
    n = len(strip)
    empty = [i for i, c in enumerate(strip) if c == "."]
    best = min(abs(2 * i + 1 - n) for i in empty)
    return rng.choice([i for i in empty if abs(2 * i + 1 - n) == best])


def rand_move(strip, rng):
    return rng.choice([i for i, c in enumerate(strip) if c == "."])


def play(seed, n=64):
    rng = random.Random(seed)
    cells = ["."] * n
    scores = [0, 0]
    bots = [rand_move, center] if seed % 2 == 0 else [center, rand_move]
    while "." in cells:
        views = ["".join({0: "x", 1: "o"}.get(c, c) for c in cells),
                 "".join({0: "o", 1: "x"}.get(c, c) for c in cells)]
        a = bots[0](views[0], rng)
        b = bots[1](views[1], rng)
        if a == b:
            cells[a] = "#"
            continue
        cells[a] = 0
        cells[b] = 1
        lo, hi = min(a, b), max(a, b)
        mine = sum(1 for c in cells[lo:hi + 1] if c == 0)
        theirs = sum(1 for c in cells[lo:hi + 1] if c == 1)
        if mine != theirs:
            scores[0 if mine > theirs else 1] += 1
    return scores


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    began = time.perf_counter()
    cpu = time.process_time()
    for g in range(games):
        play(g)
    # Games per second of wall-clock time, then per second of CPU time.
    print(games / (time.perf_counter() - began), games / (time.process_time() - cpu))


if __name__ == "__main__":
    main()
