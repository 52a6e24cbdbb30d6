"""The pure parts of learning (standard library and the engine only): the course of
lessons with their fixed positions and checks (``lessons.py``)."""
