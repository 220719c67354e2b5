#!/usr/bin/env python3
"""Times shell commands in turns and compares their CPU time.

    scripts/alternate.py N 'command 1' 'command 2' ...

Each round runs every command once, in the order given; N rounds. A
command's time is the CPU time (user and system) of its children, which a
busy or throttled machine disturbs less than the wall clock. Prints, for
each command, the minimum and the median over the rounds and their ratios
to the first command's. The commands' output is discarded; a command that
fails stops the run.
"""
import resource
import statistics
import subprocess
import sys


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    commands = sys.argv[2:]
    times = {c: [] for c in commands}
    for _ in range(rounds):
        for c in commands:
            before = cpu_seconds()
            subprocess.run(c, shell=True, stdout=subprocess.DEVNULL, check=True)
            times[c].append(cpu_seconds() - before)
    first = commands[0]
    for c in commands:
        low, mid = min(times[c]), statistics.median(times[c])
        print(
            f"min {low:.3f} s  median {mid:.3f} s  "
            f"over the first: {low / min(times[first]):.3f} (min), "
            f"{mid / statistics.median(times[first]):.3f} (median)  {c}"
        )


if __name__ == "__main__":
    main()
