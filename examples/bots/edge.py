#!/usr/bin/env python3
"""An Intervalo bot that uses the dynamic view (bot protocol v1, stdlib only).

Run a tournament with `--view dynamic` to give it `history` and `scores`.
It plays next to the opponent's last cell, on the side away from the
centre, so the interval between the two new pieces is short; when it leads
on points it plays nearest the centre instead. With the static view it
always plays nearest the centre.
"""
import json
import sys


def nearest_centre(strip):
    n = len(strip)
    empty = [i for i, c in enumerate(strip) if c == "."]
    return min(empty, key=lambda i: (abs(2 * i + 1 - n), i))


def choose(view):
    strip = view["strip"]
    history = view.get("history") or []
    scores = view.get("scores") or [0, 0]
    if history and scores[0] <= scores[1]:
        theirs = history[-1][1] - 1
        n = len(strip)
        step = 1 if 2 * theirs + 1 >= n else -1
        cell = theirs + step
        while 0 <= cell < n:
            if strip[cell] == ".":
                return cell
            cell += step
    return nearest_centre(strip)


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "turn":
            print(choose(message["view"]) + 1, flush=True)
        elif message.get("type") == "quit":
            return


if __name__ == "__main__":
    main()
