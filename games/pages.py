"""What the core's pages show that another app knows: on the table page, the
tournament a player's match belongs to (``"tournament"``, games/tournaments) and the
hint button's address (``"hint_url"``, games/analysis); on the score sheet, the
accuracy of each hand and of the match (``"accuracy"``, games/analysis).

Each app registers its part here, by name, from its ``AppConfig.ready()``; the core's
views (games/views.py) ask for the parts by name and import none of those apps
(pyproject.toml's contracts). A part nobody registered is None."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.models import Match

#: ``(match, viewer, the viewer's seat index or None) -> the part``.
TablePart = Callable[["Match", Any, "int | None"], Any]
#: ``match -> the part``.
SheetPart = Callable[["Match"], Any]

_table: dict[str, TablePart] = {}
_sheet: dict[str, SheetPart] = {}


def add_table_part(name: str, part: TablePart) -> None:
    _table[name] = part


def add_sheet_part(name: str, part: SheetPart) -> None:
    _sheet[name] = part


def table_part(name: str, *, match: Match, user: Any, seat: int | None) -> Any:
    """The table page's part ``name`` for ``user`` (who holds ``seat``, an index;
    None: a spectator), or None."""
    part = _table.get(name)
    return part(match, user, seat) if part is not None else None


def sheet_part(name: str, *, match: Match) -> Any:
    """The score sheet's part ``name``, or None."""
    part = _sheet.get(name)
    return part(match) if part is not None else None
