"""The engine's refusals as a person reads them: in their language.

games/engine imports only the standard library and writes its refusals in English,
for programs (the bot API answers them in English, as they are: docs/bot-api.md).
Each refusal also names a stable ``reason`` and the ``details`` its message names
(games/engine/errors.py, ``REASONS``). Here each reason has its sentence, marked for
translation with the same gaps, whose English is the engine's own message (so the bot
API, which answers in English, says exactly what the engine says); ``action_refused``
makes the site's refusal of an engine refusal, its message in the language active when
it is called (the page's, the socket's). The browser's offline table has the same
sentences (games/static/games/words.js ``engineRefusal``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.errors import ActionError, IllegalAction
from games.errors import IllegalActionError, MalformedActionError

# A card is named by its text ("TD"): the pages name it in the reader's words
# (games/static/games/words.js).
SENTENCES = {
    # malformed
    "not_an_object": _('an action is an object such as {"type": "pass"}'),
    "unknown_type": _(
        "unknown action type %(type)s: use one of pass, draw, discard, knock, big_gin"
    ),
    "unexpected_fields": _("unexpected field(s) for %(type)s: %(fields)s"),
    "missing_fields": _("a %(type)s action needs the field(s) %(fields)s"),
    "bad_source": _('draw source must be "stock" or "discard", got %(source)s'),
    "card_not_text": _("a card is written like 'TD', got %(card)s"),
    "bad_card": _("not a card: %(card)s (write rank then suit, like 'TD' or 'AS')"),
    # illegal
    "no_hand_in_play": _("no hand is in play: the match is over or waits for a deal"),
    "match_over": _("the match is over: nobody can forfeit it"),
    "hand_over": _("the hand is over: no more actions"),
    "not_your_turn": _("it is not your turn"),
    "first_turn_take_or_pass": _("on the first turn you may only take the upcard or pass"),
    "draw_first": _("draw a card first: from the stock or the discard pile"),
    "pass_first_turn_only": _("you can pass only on the first turn, when the upcard is offered"),
    "already_drawn": _("you have already drawn this turn: discard a card or knock"),
    "no_stock_on_first_turn": _(
        "you cannot draw from the stock on the first turn: take the upcard or pass"
    ),
    "discard_pile_empty": _("the discard pile is empty"),
    "not_held": _("you do not hold %(card)s"),
    "discard_just_taken": _("you cannot discard the card you just took from the discard pile"),
    "straight_gin_only": _(
        "Straight Gin has no knocking: you may only go gin (0 deadwood), "
        "you would have %(points)s"
    ),
    "gin_only": _(
        "the knock limit of this hand is 0: you may only go gin, you would have %(points)s"
    ),
    "knock_limit": _(
        "you may knock only with %(limit)s or less deadwood, you would have %(points)s"
    ),
    "big_gin_not_allowed": _("Big Gin is not allowed in this match"),
    "big_gin_needs_melds": _("Big Gin needs all 11 cards in melds"),
}


def refusal_sentence(error: ActionError) -> str:
    """What the engine refused, in the active language (in English, the engine's own
    message)."""
    sentence = SENTENCES.get(error.reason)
    if sentence is None:  # a refusal made without a reason: the engine's message
        return str(error)
    return str(sentence) % error.details if error.details else str(sentence)


def action_refused(error: ActionError) -> IllegalActionError | MalformedActionError:
    """The services' refusal of an action the engine refused: ``illegal_action`` naming
    the rule, or ``malformed_action`` what is wrong with it, in the active language."""
    if isinstance(error, IllegalAction):
        return IllegalActionError(refusal_sentence(error))
    return MalformedActionError(refusal_sentence(error))
