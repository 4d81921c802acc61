#!/usr/bin/env python3
"""Test bot: runs the bot program named by its second argument in this
process and writes every line it reads (`> `) and answers (`< `) to the
file named by its first, so a test sees the exact wire of that bot."""
import runpy
import sys

log = open(sys.argv[1], "a")


class Reading:
    def __init__(self, stream):
        self.stream = stream

    def __iter__(self):
        for line in self.stream:
            log.write("> " + line)
            log.flush()
            yield line


class Writing:
    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        for line in text.splitlines():
            if line:
                log.write("< " + line + "\n")
        log.flush()
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


sys.stdin = Reading(sys.stdin)
sys.stdout = Writing(sys.stdout)
program = sys.argv[2]
sys.argv = sys.argv[2:]
runpy.run_path(program, run_name="__main__")
