#!/usr/bin/env python3
import json
import sys


def move(game, view, legal):
    if legal:  # listed whenever there are at most 1000 legal moves
        return legal[0]
    if game == "rewrite":  # rules are never listed; goals not past 1000
        letter = view["alphabet"][0]
        if view["phase"] == "goals":
            return "goal " + letter * view["goal_length"]
        # A rule that deletes a letter (its left side may not be the table).
        return (letter if view["table"] != letter else letter * 2) + "=>"
    if game == "intervalo":  # more than 1000 cells
        return str(view["strip"].index(".") + 1)
    if game == "dna":  # a -manual set-up: a random sequence
        return "random"
    return "pass"  # Conway's placements, Real-Time Life


game = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        game = message["game"]
    elif message["type"] == "turn":
        print(move(game, message["view"], message.get("legal")), flush=True)
    elif message["type"] == "quit":
        break
