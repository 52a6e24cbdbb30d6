"""Bot arena: computer levels play whole matches against each other.

    python -m bench.botarena --a hard --b easy --matches 200 --seed 1 [--rules default]
                             [--jobs 2] [--budget N] [--independent]

The arena itself (duplicate pairs, the figures printed, every option) is
``games/bots/arena.py``, shipped with the site so that ``python manage.py botarena``
runs the same code; this is its entry point among the benchmarks. Needs no Django.
"""

from __future__ import annotations

import sys

from games.bots.arena import main

if __name__ == "__main__":
    sys.exit(main())
