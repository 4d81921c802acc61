#!/usr/bin/env python3
"""Test bot: plays the lowest empty Intervalo cell and writes the whole
conversation to the file named by its argument: `> ` before each line it
reads, `< ` before each line it answers."""
import sys

log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write("> " + line)
    log.flush()
    if '"type":"turn"' in line:
        strip = line.split('"strip":"', 1)[1].split('"', 1)[0]
        move = str(strip.index(".") + 1)
        log.write("< " + move + "\n")
        log.flush()
        print(move, flush=True)
    elif '"type":"quit"' in line:
        break
