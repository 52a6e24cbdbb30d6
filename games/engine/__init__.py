"""The gin rummy rules engine: pure Python, standard library only.

Everything other code uses is importable from here:

* cards: ``Card``, ``new_deck``, ``cards_to_mask`` / ``mask_to_cards`` (52-bit masks);
* melds: ``deadwood``, ``best_melds`` (-> ``Melding``), ``best_knock``, and the mask
  fast paths ``deadwood_mask`` / ``best_melds_mask`` / ``best_discard_mask`` for bots;
* rules: ``RuleSet`` and its presets;
* dealing: ``new_seed``, ``commitment``, ``shuffled_deck``, ``deal_cards``;
* match: ``MatchState`` (a whole match: dealer rotation, scores, forfeit, ``apply``);
* state: ``HandState`` (``deal``, ``from_cards``, ``legal_actions``, ``apply``,
  ``player_view``, ``spectator_view``, ``to_dict`` / ``from_dict``), ``parse_action``;
* scoring: ``HandResult``, ``score_match`` (-> ``MatchScore``), ``next_dealer``;
* clock: ``TurnClock``, ``timeout_action``;
* errors: ``ActionError``, ``MalformedAction``, ``IllegalAction``.
"""

from .cards import RANKS, SUITS, Card, cards_to_mask, mask_to_cards, new_deck
from .clock import (
    DISCONNECT_SECONDS,
    NO_CLOCK_DISCONNECT_SECONDS,
    TIMEOUTS_TO_ABANDON,
    TurnClock,
    abandoned_by_timeouts,
    disconnect_limit_seconds,
    timeout_action,
)
from .dealing import Deal, commitment, deal_cards, new_seed, shuffled_deck
from .errors import ActionError, IllegalAction, MalformedAction
from .match import MatchState
from .melds import (
    Melding,
    best_discard_mask,
    best_knock,
    best_melds,
    best_melds_mask,
    deadwood,
    deadwood_mask,
)
from .rules import TARGET_SCORES, TURN_SECONDS, RuleSet
from .scoring import HandResult, MatchScore, next_dealer, score_match
from .state import HandState, parse_action

__all__ = [
    "DISCONNECT_SECONDS",
    "NO_CLOCK_DISCONNECT_SECONDS",
    "RANKS",
    "SUITS",
    "TARGET_SCORES",
    "TIMEOUTS_TO_ABANDON",
    "TURN_SECONDS",
    "ActionError",
    "Card",
    "Deal",
    "HandResult",
    "HandState",
    "IllegalAction",
    "MalformedAction",
    "MatchScore",
    "MatchState",
    "Melding",
    "RuleSet",
    "TurnClock",
    "abandoned_by_timeouts",
    "best_discard_mask",
    "best_knock",
    "best_melds",
    "best_melds_mask",
    "cards_to_mask",
    "commitment",
    "deadwood",
    "deadwood_mask",
    "deal_cards",
    "disconnect_limit_seconds",
    "mask_to_cards",
    "new_deck",
    "new_seed",
    "next_dealer",
    "parse_action",
    "score_match",
    "shuffled_deck",
    "timeout_action",
]
