#!/usr/bin/env python3
"""A Real-Time Life bot (bot protocol v1, standard library only).

Real-Time Life runs on the clock: the referee sends a `turn` at every clock
event (with a `clock` object and no `legal` list), and the bot answers a
move or `pass`. This bot places its cells in one straight row (ten cells in
a row become a pentadecathlon, an oscillator that lives forever in free
space) where the field is emptiest, then passes.
"""
import json
import sys


def column_name(x):
    """Column letters: a..z, then aa, ab, .. (x counts from 0)."""
    name = ""
    n = x + 1
    while n > 0:
        n -= 1
        name = chr(ord("a") + n % 26) + name
        n //= 26
    return name


def point(x, y):
    """A point of a bounded field; y counts rows from 0 at the bottom."""
    return column_name(x) + str(y + 1)


def place(view, cells):
    width, height = view["width"], view["height"]
    rows = view["rows"]  # top row first
    occupied = [
        (x, height - 1 - r)
        for r, row in enumerate(rows)
        for x, c in enumerate(row)
        if c != "."
    ]
    length = min(cells, width)
    # Each point's distance (in king steps) to the nearest occupied point.
    far = width + height
    distance = [
        [min((max(abs(ox - x), abs(oy - y)) for ox, oy in occupied), default=far) for x in range(width)]
        for y in range(height)
    ]
    best, best_room = None, -1
    for y in range(height):
        for left in range(0, width - length + 1):
            xs = range(left, left + length)
            room = min(distance[y][x] for x in xs)
            # Keep off the edges too: dead edges cut an oscillator short.
            room = min(room, y, height - 1 - y, left, width - length - left)
            if room > best_room:
                best, best_room = [point(x, y) for x in xs], room
    if best is None or len(best) < cells:
        return "pass"
    return "place " + ",".join(best)


def main():
    cells = 10
    placed = False
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            cells = int(message["options"].get("start_cells", 10))
            placed = False
        elif kind == "turn":
            if placed:
                print("pass", flush=True)
            else:
                answer = place(message["view"], cells)
                placed = answer != "pass"
                print(answer, flush=True)
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
