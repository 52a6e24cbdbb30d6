"""The rule set of a match: every option of docs/rules.md as one frozen value.

Variants are presets of the same fields (docs/rules.md section 8), never special cases
elsewhere. Invalid values raise ValueError naming the field.

>>> RuleSet.default().knock_limit
10
>>> RuleSet.from_dict(RuleSet.straight_gin().to_dict()) == RuleSet.straight_gin()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

TARGET_SCORES = (50, 100, 150, 200, 250)
# Rules already read by ``RuleSet.from_dict``, by their fields' names, types and values
# (a type in the key: True == 1, but a knock limit of True is refused).
_FROM_DICT: dict[tuple[Any, ...], RuleSet] = {}
_FROM_DICT_MAX = 256
TURN_SECONDS = (15, 30, 60, 120)
MAX_BONUS = 1000


@dataclass(frozen=True)
class RuleSet:
    """Every adjustable rule of a match (defaults: the Default preset)."""

    knock_limit: int = 10
    target_score: int = 100
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    game_bonus: int = 100
    line_bonus: int = 25
    shutout: bool = True
    big_gin_allowed: bool = True
    oklahoma: bool = False
    oklahoma_ace_gin_only: bool = False
    straight: bool = False
    turn_seconds: int | None = 30

    PRESETS: ClassVar[dict[str, RuleSet]]  # name -> the preset's (immutable) rules

    def __post_init__(self) -> None:
        for name in ("knock_limit", "target_score", "gin_bonus", "big_gin_bonus",
                     "undercut_bonus", "game_bonus", "line_bonus"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
        for name in ("shutout", "big_gin_allowed", "oklahoma", "oklahoma_ace_gin_only",
                     "straight"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, got {value!r}")
        if not 0 <= self.knock_limit <= 10:
            raise ValueError(f"knock_limit must be between 0 and 10, got {self.knock_limit}")
        if self.target_score not in TARGET_SCORES:
            raise ValueError(
                f"target_score must be one of {', '.join(map(str, TARGET_SCORES))}, "
                f"got {self.target_score}"
            )
        for name in ("gin_bonus", "big_gin_bonus", "undercut_bonus", "game_bonus",
                     "line_bonus"):
            value = getattr(self, name)
            if not 0 <= value <= MAX_BONUS:
                raise ValueError(f"{name} must be between 0 and {MAX_BONUS}, got {value}")
        if self.turn_seconds is not None and (
            isinstance(self.turn_seconds, bool) or self.turn_seconds not in TURN_SECONDS
        ):
            raise ValueError(
                f"turn_seconds must be one of {', '.join(map(str, TURN_SECONDS))} "
                f"or null (no clock), got {self.turn_seconds!r}"
            )
        if self.straight and self.knock_limit != 0:
            raise ValueError("Straight Gin has no knocking: knock_limit must be 0")
        if self.straight and self.oklahoma:
            raise ValueError("a match cannot be both Straight Gin and Oklahoma Gin")
        if self.oklahoma_ace_gin_only and not self.oklahoma:
            raise ValueError("oklahoma_ace_gin_only applies only to Oklahoma Gin (oklahoma)")

    # --- presets (docs/rules.md section 8) ---------------------------------------------

    @classmethod
    def default(cls) -> RuleSet:
        """Default: knock at 10 or fewer, a 30 s turn clock."""
        return cls()

    @classmethod
    def time_freedom(cls) -> RuleSet:
        """Default with no clock."""
        return cls(turn_seconds=None)

    @classmethod
    def straight_gin(cls) -> RuleSet:
        """No knocking: hands end by Gin, Big Gin or a draw; no gin or big-gin bonus."""
        return cls(straight=True, knock_limit=0, gin_bonus=0, big_gin_bonus=0)

    @classmethod
    def oklahoma_gin(cls) -> RuleSet:
        """The knock limit of each hand is the value of its upcard (ace: 10)."""
        return cls(oklahoma=True)

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The preset called ``name``: default, time_freedom, straight or oklahoma."""
        rules = cls.PRESETS.get(name)
        if rules is None:
            raise ValueError(
                f"unknown rule preset {name!r}; choose one of {', '.join(cls.PRESETS)}"
            )
        return rules

    def variant_problem(self, variant: str, *, clock: bool = True) -> str | None:
        """Why these rules cannot be a match of ``variant`` (None when they can).

        A variant is the preset a match started from, and every field may then be
        tweaked, except what makes the variant: Straight Gin and Oklahoma Gin are their
        flag (``straight``, ``oklahoma``), and Time Freedom has no clock (checked
        unless ``clock`` is false).

        >>> print(RuleSet.default().variant_problem("oklahoma"))
        the oklahoma variant is played with rules.oklahoma true, not false
        """
        if variant not in self.PRESETS:
            return f"unknown variant {variant!r}; one of {', '.join(self.PRESETS)}"
        for flag in ("straight", "oklahoma"):
            if getattr(self, flag) != (variant == flag):
                return (f"the {variant} variant is played with rules.{flag} "
                        f"{str(variant == flag).lower()}, not {str(getattr(self, flag)).lower()}")
        if clock and variant == "time_freedom" and self.turn_seconds is not None:
            return "the time_freedom variant has no clock: rules.turn_seconds must be null"
        return None

    def preset_name(self) -> str | None:
        """The name of the preset equal to these rules, or None for tweaked rules."""
        for name, rules in self.PRESETS.items():
            if rules == self:
                return name
        return None

    # --- serialisation ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every field."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rules from ``to_dict`` output; missing fields take the Default value,
        unknown fields and invalid values raise ValueError."""
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be an object, got {type(data).__name__}")
        key = tuple((k, type(v), v) for k, v in data.items())
        try:  # the same rules are read back on every move: each is checked once
            found, cacheable = _FROM_DICT.get(key), True
        except TypeError:  # an unhashable value: checked below, and refused
            found, cacheable = None, False
        if found is not None and found.__class__ is cls:
            return found
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown rule field(s): {', '.join(map(str, unknown))}")
        rules = cls(**dict(data))
        if cacheable and len(_FROM_DICT) < _FROM_DICT_MAX:
            _FROM_DICT[key] = rules
        return rules

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (validated)."""
        return replace(self, **changes)

    def knock_limit_for(self, upcard_value: int) -> int:
        """The knock limit of a hand whose upcard has this deadwood value."""
        if self.straight:
            return 0
        if self.oklahoma:
            if upcard_value == 1:
                return 0 if self.oklahoma_ace_gin_only else 10
            return upcard_value
        return self.knock_limit


RuleSet.PRESETS = {
    "default": RuleSet.default(),
    "time_freedom": RuleSet.time_freedom(),
    "straight": RuleSet.straight_gin(),
    "oklahoma": RuleSet.oklahoma_gin(),
}
