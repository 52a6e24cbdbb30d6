"""Table settings on the page: a Profile as the data attributes of every page's <html>
(templates/base.html, through accounts/context_processors.py), which the stylesheets
(games/static/games/prefs.css) and the browser code read, and back: the attributes a
visitor's browser keeps (localStorage ``gin-prefs``, games/static/games/prefs.js) as
Profile fields, for the settings a guest carries over on sign-up. Pure: no queries.

One attribute per setting, ``data-<name>`` on <html>, always present:

=================  ==============================  =================================
attribute          values                          Profile field
=================  ==============================  =================================
data-card-size     small medium large huge         card_size
data-card-style    classic large minimal           card_style
data-suits         four two                        four_colour_deck
data-card-back     red blue green                  card_back
data-theme         green blue wine contrast        theme
data-motion        auto normal fast none           motion
data-sound         on off                          sound_on
data-volume        0 to 100                        volume
data-hand-sort     melds rank suit                 hand_sort
data-hand          right left                      left_handed
data-confirm-      on off                          confirm_discard
discard
=================  ==============================  =================================

``data-prefs`` says where they come from: ``account`` (a registered player's, rendered
here, and the browser's copy is rewritten from them) or ``browser`` (a visitor or a
guest: the blocking script games/static/games/prefs_boot.js applies the browser's copy
before the first paint)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .models import Profile

_CHOICES: dict[str, tuple[str, type[Any]]] = {
    "card-size": ("card_size", Profile.CardSize),
    "card-style": ("card_style", Profile.CardStyle),
    "card-back": ("card_back", Profile.CardBack),
    "theme": ("theme", Profile.Theme),
    "motion": ("motion", Profile.Motion),
    "hand-sort": ("hand_sort", Profile.HandSort),
}
# attribute -> (field, value when true, value when false)
_SWITCHES: dict[str, tuple[str, str, str]] = {
    "suits": ("four_colour_deck", "four", "two"),
    "sound": ("sound_on", "on", "off"),
    "hand": ("left_handed", "left", "right"),
    "confirm-discard": ("confirm_discard", "on", "off"),
}
# The Profile fields that are table settings, in the settings page's order.
FIELDS: tuple[str, ...] = (
    "card_size", "card_style", "four_colour_deck", "card_back", "theme", "motion",
    "sound_on", "volume", "hand_sort", "left_handed", "confirm_discard",
)
ATTRIBUTES: tuple[str, ...] = (
    "card-size", "card-style", "suits", "card-back", "theme", "motion", "sound", "volume",
    "hand-sort", "hand", "confirm-discard",
)


def html_attributes(profile: Profile) -> dict[str, str]:
    """The settings as ``{attribute name without "data-": value}``, in ATTRIBUTES order."""
    out: dict[str, str] = {}
    for name in ATTRIBUTES:
        if name in _CHOICES:
            out[name] = str(getattr(profile, _CHOICES[name][0]))
        elif name in _SWITCHES:
            field, on, off = _SWITCHES[name]
            out[name] = on if getattr(profile, field) else off
        else:
            out[name] = str(profile.volume)
    return out


def fields_from_attributes(attributes: Mapping[str, object]) -> dict[str, Any]:
    """The Profile fields that ``attributes`` (as html_attributes gives them, from a
    browser) set to a valid value; anything unknown or invalid is left out."""
    fields: dict[str, Any] = {}
    for name, value in attributes.items():
        if not isinstance(value, str):
            continue
        if name in _CHOICES:
            field, choices = _CHOICES[name]
            if value in choices.values:
                fields[field] = value
        elif name in _SWITCHES:
            field, on, off = _SWITCHES[name]
            if value in (on, off):
                fields[field] = value == on
        elif name == "volume" and value.isdigit() and 0 <= int(value) <= 100:
            fields["volume"] = int(value)
    return fields
