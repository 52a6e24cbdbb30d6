"""The course of lessons (issue 32): eight short lessons in order, each a few lines of
text and two to four exercises played on the real table with the real engine.

Pure: the standard library and ``games.engine`` only. Every exercise is a fixed
position (a ``HandState`` built here) with the learner in seat 0, and either

- an **action** exercise: the learner plays one action on the table; the actions that
  answer the goal are worked out here with the engine (``correct``), a wrong one is
  explained in one sentence (``wrong`` for the mistakes worth naming, ``otherwise`` for
  the rest; ``%(card)s``, ``%(after)s`` and ``%(best)s`` are filled in by the page:
  the card played, the deadwood it leaves, the least deadwood a discard could leave)
  and can be retried, a right one moves on; or
- a **choice** exercise: a question about a finished hand (the engine's result, shown
  as the table's showdown) or a match's score, with one right answer among a few.

The page (``games/learn/static/learn/learn.js``) applies the action with the browser's
port of the engine (``games/static/games/offline/engine.js``, kept equal to this one by
``tests/offline/``), so a lesson works offline once opened. Texts are English and
marked with ``_`` (a marker only: the view translates them with Django's gettext).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.cards import Card, new_deck
from games.engine.melds import deadwood
from games.engine.rules import RuleSet
from games.engine.state import HandState

LEARNER = 0
OPPONENT = 1


def _(text: str) -> str:
    """Marks ``text`` for translation (makemessages reads ``_("...")``); the view
    translates it when it builds the page."""
    return text


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson (see the module's docstring)."""

    id: str
    goal: str
    state: HandState | None
    kind: str = "action"  # "action" or "choice"
    correct: tuple[dict[str, str], ...] = ()
    wrong: tuple[tuple[dict[str, str], str], ...] = ()
    otherwise: str = ""
    success: str = ""
    options: tuple[tuple[str, bool, str], ...] = ()  # choice: (label, right, why)

    def to_dict(self, translate: Callable[[str], str]) -> dict[str, Any]:
        """JSON for the page, its texts passed through ``translate``."""
        return {
            "id": self.id,
            "kind": self.kind,
            "goal": translate(self.goal),
            "state": None if self.state is None else self.state.to_dict(),
            "correct": [dict(a) for a in self.correct],
            "wrong": [{"action": dict(a), "why": translate(why)} for a, why in self.wrong],
            "otherwise": translate(self.otherwise),
            "success": translate(self.success),
            "options": [
                {"label": translate(label), "right": right, "why": translate(why)}
                for label, right, why in self.options
            ],
        }


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    text: tuple[str, ...]
    exercises: tuple[Exercise, ...]
    final_match: bool = False  # ends with a match against the easy computer, hints on

    def to_dict(self, translate: Callable[[str], str]) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "title": translate(self.title),
            "text": [translate(t) for t in self.text],
            "exercises": [e.to_dict(translate) for e in self.exercises],
            "final_match": self.final_match,
        }


# --------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------


def position(
    hand: str,
    *,
    pile: str,
    phase: str = "draw",
    known: str = "",
    stock: int = 25,
    rules: RuleSet | None = None,
    upcard: str | None = None,
    history: Sequence[dict[str, Any]] = (),
    seed: int = 0,
) -> HandState:
    """A fixed position with the learner (seat 0) to move: ``hand`` (10 cards, or 11 in
    the discard phase), the discard ``pile`` (bottom to top), the cards the opponent is
    known to hold (``known``: taken from the pile), ``stock`` cards left. The
    opponent's other cards and the stock are the rest of the deck in a fixed order."""
    mine = [Card.parse(c) for c in hand.split()]
    discards = [Card.parse(c) for c in pile.split()]
    theirs_known = [Card.parse(c) for c in known.split()]
    used = set(mine) | set(discards) | set(theirs_known)
    if len(used) != len(mine) + len(discards) + len(theirs_known):
        raise ValueError("a card appears twice in the position")
    rest = [c for c in new_deck() if c not in used]
    random.Random(seed).shuffle(rest)
    theirs = theirs_known + rest[: 10 - len(theirs_known)]
    rest = rest[10 - len(theirs_known):]
    if len(rest) < stock:
        raise ValueError("not enough cards left for the stock")
    return HandState(
        rules=rules or RuleSet.time_freedom(),
        dealer=OPPONENT,
        hands=(tuple(sorted(mine)), tuple(sorted(theirs))),
        stock=tuple(rest[:stock]),
        discard_pile=tuple(discards),
        upcard=Card.parse(upcard) if upcard else discards[0],
        phase=phase,
        current_player=LEARNER,
        known=((), tuple(sorted(theirs_known))),
        history=tuple(history),
    )


def _discard_deadwood(state: HandState) -> dict[str, int]:
    hand = state.hand(LEARNER)
    return {str(c): deadwood([d for d in hand if d != c]) for c in hand}


def least_deadwood_discards(state: HandState) -> tuple[dict[str, str], ...]:
    """The discards (and knocks) leaving the least deadwood: the answer to "discard to
    keep your melds"."""
    after = _discard_deadwood(state)
    best = min(after.values())
    return tuple(
        a for a in state.legal_actions()
        if a["type"] in ("discard", "knock") and after[a["card"]] == best
    )


def knocks(state: HandState, *, gin: bool | None = None) -> tuple[dict[str, str], ...]:
    """The legal knocks (``gin``: only gin, or only not gin)."""
    after = _discard_deadwood(state)
    return tuple(
        a for a in state.legal_actions() if a["type"] == "knock"
        and (gin is None or (after[a["card"]] == 0) == gin)
    )


def discards_of(state: HandState, cards: Iterable[str]) -> tuple[dict[str, str], ...]:
    wanted = set(cards)
    return tuple(
        a for a in state.legal_actions()
        if a["type"] in ("discard", "knock") and a["card"] in wanted
    )


TAKE = {"type": "draw", "source": "discard"}
STOCK = {"type": "draw", "source": "stock"}
PASS = {"type": "pass"}


def finished(state: HandState, *actions: dict[str, str]) -> HandState:
    """``state`` after ``actions`` (the engine's result of a knock, for a choice)."""
    for action in actions:
        state, _events = state.apply(action)
    return state


# --------------------------------------------------------------------------------------
# The course
# --------------------------------------------------------------------------------------


def _melds() -> Lesson:
    run = position("5H 6H KS KD 2C 9D JC 3S 8C QD", pile="7H", phase="first_turn")
    ace = position("AS 2S 8D 8C TH JD 4C 6S QC KH", pile="9C 3S")
    no_wrap = position("QH KH 7C 7D 7S 3D 5C 9S TC 2H", pile="4S AH")
    kinds = position("9C 9D 4H 5H JS 2D 6C KC QS 3C", pile="TD 9S")
    return Lesson(
        slug="melds",
        title=_("Cards and melds"),
        text=(
            _("Gin rummy is played with one 52-card deck by two players, ten cards each."),
            _(
                "A set is three or four cards of one rank (8♥ 8♠ 8♦). A run is three or more "
                "cards of one suit in a row (5♣ 6♣ 7♣)."
            ),
            _(
                "Aces are always low: A♥ 2♥ 3♥ is a run, Q♥ K♥ A♥ is not, and runs never wrap "
                "around."
            ),
            _(
                "The table arranges your hand for you: melds are grouped and tagged, the rest is "
                "deadwood."
            ),
        ),
        exercises=(
            Exercise(
                id="melds-run", state=run,
                goal=_("Make a run: take the 7♥ from the discard pile."),
                correct=(TAKE,),
                wrong=((PASS, _(
                    "The 7♥ joins your 5♥ and 6♥ in a run of three: take it instead of passing."
                )),),
                success=_("5♥ 6♥ 7♥ is a run: three hearts in a row."),
            ),
            Exercise(
                id="melds-ace", state=ace,
                goal=_("Aces are low: take the card that makes a run with your A♠ 2♠."),
                correct=(TAKE,),
                wrong=((STOCK, _(
                    "The 3♠ on the discard pile makes A♠ 2♠ 3♠ a run (aces are low): take it "
                    "rather than an unknown card."
                )),),
                success=_("A♠ 2♠ 3♠: the ace counts as one, below the two."),
            ),
            Exercise(
                id="melds-no-wrap", state=no_wrap,
                goal=_("Does the A♥ make a run with your Q♥ K♥? Draw the right card."),
                correct=(STOCK,),
                wrong=((TAKE, _(
                    "Q♥ K♥ A♥ is not a run: the ace is low, next to the two, never above the "
                    "king. Draw from the stock."
                )),),
                success=_("Right: runs never go round the corner from king to ace."),
            ),
            Exercise(
                id="melds-set", state=kinds,
                goal=_("Make a set: take the card that gives you three of a kind."),
                correct=(TAKE,),
                wrong=((STOCK, _("The 9♠ makes 9♣ 9♦ 9♠ a set of three nines: take it.")),),
                success=_("Three nines: a set. A fourth nine could join it later."),
            ),
        ),
    )


def _deadwood() -> Lesson:
    shared = position("5H 6H 7H 7C 7S 2D 9C QC KD 4S 3S", pile="8D", phase="discard",
                      history=({"seat": 0, "type": "draw", "source": "stock"},))
    keep = position("2C 3C 4C JH JS JD 8S 9D KC 6H AD", pile="TS", phase="discard",
                    history=({"seat": 0, "type": "draw", "source": "stock"},))
    return Lesson(
        slug="deadwood",
        title=_("Deadwood and arranging a hand"),
        text=(
            _(
                "Cards that are in no meld are deadwood. They count against you: an ace 1, two to "
                "ten their face value, jack, queen and king 10."
            ),
            _(
                "A card can belong to only one meld, and the table always picks the arrangement "
                "with the least deadwood. The number under your hand is your deadwood now."
            ),
            _(
                "After drawing you have eleven cards and must discard one: usually the card that "
                "leaves the least deadwood."
            ),
        ),
        exercises=(
            Exercise(
                id="deadwood-high", state=keep,
                goal=_("Discard the card that leaves you the least deadwood."),
                correct=least_deadwood_discards(keep),
                otherwise=_(
                    "Discarding the %(card)s leaves %(after)s deadwood; the best discard leaves "
                    "%(best)s. Throw your highest card that is in no meld."
                ),
                success=_(
                    "The king was your highest unmatched card: your deadwood is as low as it can "
                    "be."
                ),
            ),
            Exercise(
                id="deadwood-shared", state=shared,
                goal=_(
                    "The 7♥ could be in the run or in the set of sevens, not both. Discard to "
                    "leave the least deadwood."
                ),
                correct=least_deadwood_discards(shared),
                otherwise=_(
                    "Discarding the %(card)s leaves %(after)s deadwood; the best discard leaves "
                    "%(best)s. Keep your melds and throw a high card."
                ),
                success=_("The table found the arrangement with the least deadwood for you."),
            ),
        ),
    )


def _draw() -> Lesson:
    useless = position("4C 5C 6C 8H 8D 2S 3S JD QH 9C", pile="KS", phase="first_turn")
    useful = position("TH TD 3C 4C 5C 7S 8S KH 2D QC", pile="6D TC",
                      history=({"seat": 0, "type": "pass"}, {"seat": 1, "type": "pass"}))
    plain = position("AC 2C 3C 6D 7D 8D JH JS 4H 9S", pile="5S KD", stock=22)
    return Lesson(
        slug="draw",
        title=_("The draw"),
        text=(
            _(
                "Each turn starts with a draw: the top card of the stock (face down) or the top "
                "card of the discard pile (face up)."
            ),
            _(
                "First turn: the non-dealer may take the upcard or pass, but not draw from the "
                "stock. If both pass, the non-dealer draws as usual."
            ),
            _(
                "Take a card from the discard pile when it makes or extends a meld; your opponent "
                "sees what you took."
            ),
        ),
        exercises=(
            Exercise(
                id="draw-first-turn", state=useless,
                goal=_("It is the first turn and the upcard is the K♠. Take it or pass?"),
                correct=(PASS,),
                wrong=((TAKE, _(
                    "The K♠ fits none of your melds and would be 10 more deadwood: pass, and you "
                    "draw from the stock later."
                )),),
                success=_("Passing lets the dealer decide; then you draw from the stock."),
            ),
            Exercise(
                id="draw-take", state=useful,
                goal=_("Draw the card that makes a meld."),
                correct=(TAKE,),
                wrong=((STOCK, _("The T♣ on the discard pile makes T♥ T♦ T♣ a set: take it.")),),
                success=_("Three tens: a new set from the discard pile."),
            ),
            Exercise(
                id="draw-stock", state=plain,
                goal=_("The K♦ is on the discard pile. Take it, or draw from the stock?"),
                correct=(STOCK,),
                wrong=((TAKE, _(
                    "The K♦ makes no meld with your cards and would add 10 deadwood; it also "
                    "tells your opponent what you want. Draw from the stock."
                )),),
                success=_("An unknown card from the stock might help; the K♦ could not."),
            ),
        ),
    )


def _discard() -> Lesson:
    high = position("3D 4D 5D 6S 6H 6C 2H KS 9C 4S TC", pile="8H", phase="discard",
                    history=({"seat": 0, "type": "draw", "source": "stock"},))
    safe = position("AS 2S 3S 5C 5D 5H 9D JC 4H 2C QS", pile="KH 7C", phase="discard",
                    known="8D", stock=20,
                    history=({"seat": 1, "type": "draw", "source": "discard", "card": "8D"},
                             {"seat": 1, "type": "discard", "card": "7C"},
                             {"seat": 0, "type": "draw", "source": "stock"}))
    return Lesson(
        slug="discard",
        title=_("The discard"),
        text=(
            _(
                "After drawing you discard one card face up. A card you took from the discard "
                "pile cannot go straight back."
            ),
            _(
                "Throw high cards that are in no meld first: they cost the most if your opponent "
                "knocks."
            ),
            _(
                "Watch what your opponent takes: a card they picked up tells you what they "
                "collect. Do not feed them."
            ),
        ),
        exercises=(
            Exercise(
                id="discard-high", state=high,
                goal=_("Discard your most costly card that is in no meld."),
                correct=discards_of(high, ["KS"]),
                otherwise=_(
                    "The %(card)s leaves %(after)s deadwood; the king leaves %(best)s. Get rid of "
                    "high "
                    "unmatched cards first."
                ),
                success=_("Kings, queens and jacks cost 10 each: throw them early."),
            ),
            Exercise(
                id="discard-safe", state=safe,
                goal=_(
                    "Your opponent took the 8♦ from the pile. Discard a card that does not help "
                    "them."
                ),
                correct=discards_of(safe, ["QS", "JC"]),
                wrong=((
                    {"type": "discard", "card": "9D"},
                    _(
                        "Your opponent took the 8♦: they probably hold diamonds near it or other "
                        "eights, and the 9♦ may complete their meld. Throw a card far from it."
                    ),
                ),),
                otherwise=_(
                    "The %(card)s leaves %(after)s deadwood; a high card far from the 8♦ leaves "
                    "less "
                    "and is safer."
                ),
                success=_("Your opponent cannot use a card far from the 8♦: a safe discard."),
            ),
        ),
    )


def _knock() -> Lesson:
    can = position("2H 3H 4H 8C 8S 8D JS JD JC 5S KC", pile="9H", phase="discard",
                   history=({"seat": 0, "type": "draw", "source": "stock"},))
    oklahoma = RuleSet.oklahoma_gin().replace(turn_seconds=None)
    okla = position("AC 2C 3C 9H 9S 9D 5S 6S 7S 2D QH", pile="4S 7H", upcard="4S", phase="discard",
                    rules=oklahoma,
                    history=({"seat": 0, "type": "draw", "source": "stock"},))
    return Lesson(
        slug="knock",
        title=_("Knocking and the knock limit"),
        text=(
            _(
                "After drawing, if your deadwood would be 10 or less once you discard, you may "
                "knock: discard face down and end the hand."
            ),
            _(
                "Both hands are shown. The knocker scores the difference between the two deadwood "
                "totals."
            ),
            _(
                "The knock limit is 10 in the default game. In Oklahoma Gin it is the value of "
                "the first upcard of the hand."
            ),
            _(
                "Press Knock, then choose the card to discard: the table highlights the cards you "
                "may knock with."
            ),
        ),
        exercises=(
            Exercise(
                id="knock-now", state=can,
                goal=_("You can end the hand. Knock."),
                correct=knocks(can),
                otherwise=_(
                    "Discarding the %(card)s leaves %(after)s deadwood, within the knock limit of "
                    "10: "
                    "press Knock and choose the card instead of discarding."
                ),
                success=_(
                    "You knocked: your opponent must lay off what they can and count their "
                    "deadwood."
                ),
            ),
            Exercise(
                id="knock-oklahoma", state=okla,
                goal=_(
                    "Oklahoma Gin: the first upcard was the 4♠, so the knock limit is 4. Knock "
                    "with the card that gets you there."
                ),
                correct=knocks(okla),
                otherwise=_(
                    "Discarding the %(card)s leaves %(after)s deadwood. Knock instead: keep the 2♦ "
                    "and throw the queen, which leaves 2."
                ),
                success=_("With 2 deadwood you were within this hand's limit of 4."),
            ),
        ),
    )


def _gin() -> Lesson:
    gin = position("AD 2D 3D 4D 7C 7H 7S QS KS JS 9H", pile="5C", phase="discard",
                   history=({"seat": 0, "type": "draw", "source": "stock"},))
    big = position("5S 6S 7S 8S 2C 2D 2H KD KH KC 9S", pile="4D", phase="discard",
                   history=({"seat": 0, "type": "draw", "source": "stock"},))
    return Lesson(
        slug="gin",
        title=_("Gin and big gin"),
        text=(
            _(
                "Gin: you knock with no deadwood at all. You score your opponent's deadwood plus "
                "a gin bonus of 25, and they may not lay off."
            ),
            _(
                "Big gin: all eleven cards after your draw are in melds. You end the hand without "
                "discarding and score 31 more."
            ),
            _("Gin is never undercut: it is worth waiting for when it is one card away."),
        ),
        exercises=(
            Exercise(
                id="gin-go", state=gin,
                goal=_("All but one of your cards are in melds. Go gin."),
                correct=knocks(gin, gin=True),
                otherwise=_(
                    "Discarding the %(card)s leaves %(after)s deadwood; throwing the 9♥ leaves "
                    "none: "
                    "press Gin!"
                ),
                success=_("Gin! Your opponent's whole deadwood plus 25, and no lay-offs."),
            ),
            Exercise(
                id="gin-big", state=big,
                goal=_("Count your melds: all eleven cards fit. End the hand."),
                correct=({"type": "big_gin"},),
                otherwise=_(
                    "All eleven cards are in melds (5♠ to 9♠, three twos, three kings): press Big "
                    "gin! instead of discarding."
                ),
                success=_("Big gin: 31 points more than your opponent's deadwood."),
            ),
        ),
    )


def _layoffs() -> Lesson:
    # The opponent (seat 1) knocks; the learner's hand is laid off automatically.
    base = position("4H 5H 6H 9C 9D 9S 3C 7H 8S 2D", pile="KC QD", phase="draw", stock=20, seed=3)
    theirs = ("2S", "3S", "4S", "5S", "8C", "8D", "8H", "AD", "AH", "3D")
    under = _knocked_by_opponent(base, theirs, draw="TC", knock="TC")
    layoff = position("9H TH 2C 2D 2S JS QS KS 6C 4D", pile="AS", phase="draw", stock=20, seed=4)
    their_run = ("5H", "6H", "7H", "8H", "3C", "3D", "3H", "AC", "2H", "4S")
    laid = _knocked_by_opponent(layoff, their_run, draw="KC", knock="KC")
    return Lesson(
        slug="layoffs",
        title=_("Lay-offs and the undercut"),
        text=(
            _(
                "When your opponent knocks (not gin), you may lay off your deadwood on their "
                "melds: a fourth card on a set, or cards extending a run at either end."
            ),
            _("The table lays off for you in the way that leaves you the least deadwood."),
            _(
                "If your deadwood after laying off is no more than the knocker's, you undercut "
                "them: you score the difference plus 25."
            ),
        ),
        exercises=(
            Exercise(
                id="layoffs-which", state=laid, kind="choice",
                goal=_(
                    "Your opponent knocked with the run 5♥ 6♥ 7♥ 8♥. Which of your cards were "
                    "laid off on it?"
                ),
                options=(
                    (_(
                        "The 9♥ and the 10♥"
                    ), True, _(
                        "Right: 9♥ then 10♥ extend the run upwards; laid-off cards can chain."
                    )),
                    (_(
                        "Only the 9♥"
                    ), False, _(
                        "The 10♥ follows the 9♥ on the same run: cards laid off can chain."
                    )),
                    (_(
                        "The 4♦"
                    ), False, _(
                        "The 4♦ is a diamond: it cannot join a run of hearts, nor the threes "
                        "(which already has the 3♦)."
                    )),
                ),
            ),
            Exercise(
                id="layoffs-undercut", state=under, kind="choice",
                goal=_("Your opponent knocked. Look at both hands after the lay-offs: who scores?"),
                options=(
                    (_(
                        "You do: an undercut"
                    ), True, _(
                        "Right: after laying off you had no more deadwood than the knocker, so "
                        "you score the difference plus the 25 undercut bonus."
                    )),
                    (_(
                        "Your opponent, the knocker"
                    ), False, _(
                        "The knocker scores only when their deadwood is lower. After your "
                        "lay-offs yours was not higher: that is an undercut, and you score."
                    )),
                    (_(
                        "Nobody"
                    ), False, _(
                        "A hand only scores nothing when the stock runs out. Here the knocker was "
                        "undercut: you score the difference plus 25."
                    )),
                ),
            ),
        ),
    )


def _knocked_by_opponent(
    state: HandState, theirs: Sequence[str], *, draw: str, knock: str
) -> HandState:
    """``state`` with the opponent holding ``theirs`` (10 cards), the learner passing
    the turn to them: they draw ``draw`` from the stock and knock with ``knock``."""
    mine = set(state.hand(LEARNER))
    their_cards = tuple(sorted(Card.parse(c) for c in theirs))
    drawn = Card.parse(draw)
    used = mine | set(their_cards) | set(state.discard_pile) | {drawn}
    rest = [c for c in new_deck() if c not in used]
    ready = HandState(
        rules=state.rules, dealer=LEARNER, hands=(state.hands[LEARNER], their_cards),
        stock=(drawn, *rest[:19]), discard_pile=state.discard_pile, upcard=state.upcard,
        phase="draw", current_player=OPPONENT,
    )
    return finished(ready, STOCK, {"type": "knock", "card": knock})


def _scoring() -> Lesson:
    return Lesson(
        slug="scoring",
        title=_("Scoring a match"),
        text=(
            _(
                "A match is played over several hands until one player's total reaches the "
                "target, 100 by default."
            ),
            _(
                "Then bonuses are added: the game bonus of 100 to the player who reached the "
                "target, and a line (box) bonus of 25 for every hand each player won."
            ),
            _(
                "Shutout: if the winner won every hand, their hand points are doubled before the "
                "line bonus."
            ),
        ),
        exercises=(
            Exercise(
                id="scoring-boxes", state=None, kind="choice",
                goal=_(
                    "You reached 104 points winning 4 hands; your opponent has 40 from 2 hands. "
                    "What is your final total?"
                ),
                options=(
                    (_(
                        "304"
                    ), True, _("Right: 104 hand points, 100 game bonus, 4 × 25 line bonus.")),
                    (_(
                        "204"
                    ), False, _(
                        "Add the line bonus too: 25 for each of your 4 hands won, 100 more."
                    )),
                    (_(
                        "104"
                    ), False, _(
                        "The game bonus (100) and the line bonus (25 per hand won) come on top."
                    )),
                ),
            ),
            Exercise(
                id="scoring-shutout", state=None, kind="choice",
                goal=_(
                    "You won all 3 hands, 110 points in all, and your opponent scored nothing. "
                    "What is your final total?"
                ),
                options=(
                    (_(
                        "395"
                    ), True, _(
                        "Right: a shutout doubles 110 to 220, plus 100 game bonus and 3 × 25 line "
                        "bonus."
                    )),
                    (_("285"), False, _("It is a shutout: the 110 hand points are doubled first.")),
                    (_(
                        "320"
                    ), False, _(
                        "Doubled hand points (220) and the game bonus (100) are right; add 25 for "
                        "each of the 3 hands."
                    )),
                ),
            ),
        ),
        final_match=True,
    )


def course() -> list[Lesson]:
    """The lessons, in order."""
    return [_melds(), _deadwood(), _draw(), _discard(), _knock(), _gin(), _layoffs(), _scoring()]


def lesson_slugs() -> list[str]:
    return [lesson.slug for lesson in course()]


