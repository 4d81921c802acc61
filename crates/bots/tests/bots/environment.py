#!/usr/bin/env python3
"""Test bot: writes the names in its environment, one a line, to the file
named by its argument, then plays the lowest empty Intervalo cell."""
import json
import os
import sys

with open(sys.argv[1], "w") as f:
    f.write("\n".join(sorted(os.environ)) + "\n")
for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "turn":
        print(message["view"]["strip"].index(".") + 1, flush=True)
    elif message.get("type") == "quit":
        break
