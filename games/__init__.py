"""Games: the rules engine (pure), computer players (pure), and live matches."""
