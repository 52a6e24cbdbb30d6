"""Sizes of what a socket receives per move: event frames against full states.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gin_bench_live \\
    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python -m bench.frames --matches 50

Plays whole matches (to 100, default rules, both seats played by the easy
computer) through the services' own core (``games.services.play.Change``) on
unsaved rows, its database writes and channel-layer sends left out, and prints the
sizes in bytes (compact JSON, as the consumer sends it) of the event frames per
audience (the mover, the opponent, spectators), of the full states sent when a hand
ends, and of the full state each move would have cost before the redesign (one per
audience per move).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def size(message: dict) -> int:
    return len(json.dumps(message, separators=(",", ":")))


def spread(values: list[int]) -> str:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"n={len(ordered):6d}  p50 {at(0.5):5d}  p95 {at(0.95):5d}  max {ordered[-1]:5d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games import broadcast
    from games.bots import choose_action
    from games.engine import MatchState, RuleSet
    from games.models import Hand, Match, Seat
    from games.services import play, store

    store.Writes.run = lambda self, commit=False: self.statements.clear()  # in memory only
    broadcast.publish_on_commit = lambda match_id, messages: None
    users = [
        get_user_model().objects.get_or_create(username=name, defaults={"email": ""})[0]
        for name in ("bench-frames-a", "bench-frames-b")
    ]
    rng = random.Random(args.seed)
    sizes: dict[str, list[int]] = {"mover": [], "opponent": [], "spectator": [],
                                   "state": [], "state (before)": []}
    rules = RuleSet.default()
    for number in range(args.matches):
        now = timezone.now()
        match = Match(pk=10**9 + number, kind="friend", variant="default",
                      rules=rules.to_dict(), status="active", version=1, rated=False,
                      started_at=now, first_dealer=rng.randrange(2), finished_hands=[])
        seed = rng.randbytes(32)
        state = MatchState.start(rules, match.first_dealer, seed)
        hand = Hand(pk=1, number=1, dealer=match.first_dealer, seed=seed,
                    seed_hash=hashlib.sha256(seed).hexdigest(), state=state.hand.to_dict())
        locked = play.Locked(match=match, seats=[Seat(index=i, user=users[i]) for i in (0, 1)],
                             hand=hand)
        play._start_turn(match, state, now, after_showdown=False)
        while match.status == "active":
            mover = match.current_seat
            change = play.Change(locked, timezone.now())
            view = state.hand.player_view(mover)
            change.act(mover, choose_action("easy", view, view["legal_actions"], rng))
            # The match's end runs its hooks (fair play, leaderboards) on the database:
            # inside a transaction rolled back, so the benchmark leaves nothing behind.
            with transaction.atomic():
                sent = change.commit()
                transaction.set_rollback(True)
            state = change.state
            for audience, message in sent.items():
                if message["type"] == "state":
                    sizes["state"].append(size(message))
                    continue
                kind = "spectator" if audience is None else (
                    "mover" if audience == mover else "opponent")
                sizes[kind].append(size(message))
                full = play._states(locked, state, timezone.now(), [0, 1])[audience]
                sizes["state (before)"].append(size(full))
    print(f"frame sizes in bytes over {args.matches} matches to {rules.target_score}:")
    for kind, values in sizes.items():
        print(f"  {kind:15s} {spread(values)}")


if __name__ == "__main__":
    main()
