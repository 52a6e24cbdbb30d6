"""Post-hand analysis and hints (issue 15): the Django side of
``games.bots.analysis``. Every finished hand gets a ``HandAnalysis`` computed by a
Celery task on the "analysis" queue (a background thread in the embedded mode);
players read it through ``GET /api/match/{id}/analysis``, the replay page, the
result dialog, the score sheet and their profile. ``Hint`` records the expert's
suggestions given in unrated matches against the computer."""
