"""Bot arena: computer levels play whole matches against each other.

    python -m bench.botarena --a hard --b easy --matches 200 --seed 1 [--rules default]
                             [--jobs 2] [--budget N] [--independent]
                             [--level 'expert:match_aware=0/stock_gain=1']

The arena itself (duplicate pairs, the figures printed, every option but the last) is
``games/bots/arena.py``, shipped with the site so that ``python manage.py botarena``
runs the same code; this is its entry point among the benchmarks. Needs no Django.
``--level`` (repeatable) is for experiments: it changes a search level's settings for
the run, written as ``bench/bottune.py`` writes a search variant without its ``@``.
"""

from __future__ import annotations

import argparse
import sys

from bench.bottune import set_levels
from games.bots.arena import main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--level", action="append", default=[])
    options, rest = parser.parse_known_args()
    set_levels(options.level)  # the worker processes are forked with it
    sys.exit(main(rest))
