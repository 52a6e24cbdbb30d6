"""The gin rummy rules engine: pure Python, standard library only."""
