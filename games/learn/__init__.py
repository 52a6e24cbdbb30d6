"""Learning (issue 32): the course of lessons for newcomers, played on the table with
the engine (``core/lessons.py``, pure), and the progress of each account through it.
The lesson page works offline once opened (the service worker precaches it: see
games/offline_views.py and docs/offline.md)."""
