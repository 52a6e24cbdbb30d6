"""Offline match records as the browser makes them (games/static/games/offline/match.js),
built here with the Python engine and computer players."""

from __future__ import annotations

import hashlib
import random
import uuid
from typing import Any

from games.bots import choose_action
from games.engine import HandState, RuleSet, next_dealer, score_match


def offline_record(*, target: int = 50, level: str = "easy", seed: int = 1) -> dict[str, Any]:
    """A whole finished match, seat 0 (the player) and seat 1 both played by ``level``."""
    rng = random.Random(seed)
    rules = RuleSet.time_freedom().replace(target_score=target)
    dealer = rng.randrange(2)
    record: dict[str, Any] = {
        "id": str(uuid.UUID(int=rng.getrandbits(128))),
        "level": level, "variant": "time_freedom", "rules": rules.to_dict(),
        "first_dealer": dealer, "hands": [], "resigned": False,
        "started_at": "2026-11-30T10:00:00Z", "finished_at": "2026-11-30T10:20:00Z",
    }
    results = []
    for number in range(200):
        seed_bytes = hashlib.sha256(f"offline record {seed} {number}".encode()).digest()
        state = HandState.deal(rules, dealer, seed_bytes)
        actions = []
        while not state.is_over:
            seat = state.current_player
            action = choose_action(level, state.player_view(seat), state.legal_actions(), rng)
            actions.append({"seat": seat, "action": action})
            state, _ = state.apply(action, seat)
        record["hands"].append({"seed": seed_bytes.hex(), "actions": actions})
        results.append(state.result)
        score = score_match(rules, results)
        if score.over:
            record["totals"] = list(score.totals)
            return record
        dealer = next_dealer(dealer, state.result)
    raise AssertionError("the match did not end in 200 hands")
