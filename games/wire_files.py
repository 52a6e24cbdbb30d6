"""The files generated from the wire's models (games/wire.py): the JSON Schemas of
docs/schemas/ and the browser's JSDoc typedefs (games/static/games/wire.js, read by
TypeScript's checker only: no page loads it).

``python manage.py wire_schemas`` writes them; tests/test_wire_schemas.py fails when a
committed file differs from what the models generate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from games import wire

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = "docs/schemas"
JSDOC_FILE = "games/static/games/wire.js"
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
COMMAND = "python manage.py wire_schemas"

#: One schema per socket and direction, and the two shapes the bot API shares (an
#: action, a view): file name -> (the type, its title, its typedef in wire.js).
SCHEMAS: dict[str, tuple[Any, str, str]] = {
    "match-server.json": (
        wire.MatchSocketFrame, "A frame the match socket (/ws/match/<id>/) sends",
        "MatchSocketFrame",
    ),
    "match-client.json": (
        wire.MatchClientFrame, "A frame a client sends on the match socket", "MatchClientFrame",
    ),
    "chat-server.json": (
        wire.ChatSocketFrame, "A frame the lobby's chat socket (/ws/lobby/) sends",
        "ChatSocketFrame",
    ),
    "chat-client.json": (
        wire.ChatClientFrame, "A frame a client sends on the lobby's socket or a tournament's",
        "ChatClientFrame",
    ),
    "tournament-server.json": (
        wire.TournamentSocketFrame, "A frame the tournament socket (/ws/tournament/<id>/) sends",
        "TournamentSocketFrame",
    ),
    "tournament-client.json": (
        wire.ChatClientFrame, "A frame a client sends on the tournament socket",
        "TournamentClientFrame",
    ),
    "action.json": (wire.Action, "An engine action, as a client sends it", "Action"),
    "view.json": (wire.View, "What one audience sees of the hand on the table", "View"),
}


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of docs/schemas/``name``, generated from the models."""
    kind, title, _ = SCHEMAS[name]
    schema = TypeAdapter(kind).json_schema(schema_generator=wire.SchemaGenerator)
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{SCHEMA_DIR}/{name}",
        "title": title,
        "description": f"Generated from games/wire.py by `{COMMAND}`; do not edit.",
        **{key: value for key, value in schema.items() if key not in ("title", "description")},
    }


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# --- JSDoc typedefs from the schemas ------------------------------------------------------


def _ts(schema: dict[str, Any]) -> str:
    """The TypeScript type (as JSDoc in a checked JS file reads it) of a schema."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    for union in ("oneOf", "anyOf"):
        if union in schema:
            return " | ".join(_ts_in_union(part) for part in schema[union])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        item = "unknown" if items is None else _ts_in_union(items)
        if items is not None and schema.get("minItems") == schema.get("maxItems") == 2:
            return f"[{_ts(items)}, {_ts(items)}]"
        return f"Array<{_ts(items) if items is not None else item}>"
    if kind == "object":
        if "properties" in schema:
            fields = ", ".join(
                f"{name}{'' if name in schema.get('required', ()) else '?'}: {_ts(value)}"
                for name, value in schema["properties"].items()
            )
            return f"{{ {fields} }}"
        return "Record<string, unknown>"
    return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean",
            "null": "null"}.get(str(kind), "unknown")


def _ts_in_union(schema: dict[str, Any]) -> str:
    text = _ts(schema)
    return f"({text})" if " | " in text and not text.startswith(("{", "[")) else text


def _comment(text: str, indent: str = " * ") -> list[str]:
    return [f"{indent}{line}".rstrip() for line in text.replace("``", "`").splitlines()]


def _typedef(name: str, schema: dict[str, Any]) -> list[str]:
    lines = ["/**"]
    if schema.get("description"):
        lines += [*_comment(schema["description"]), " *"]
    if schema.get("type") == "object" and "properties" in schema:
        lines.append(f" * @typedef {{object}} {name}")
        required = set(schema.get("required", ()))
        for field, value in schema["properties"].items():
            label = field if field in required else f"[{field}]"
            note = f" {value['description']}" if value.get("description") else ""
            lines.append(f" * @property {{{_ts(value)}}} {label}{note}".rstrip())
    else:
        lines.append(f" * @typedef {{{_ts(schema)}}} {name}")
    return [*lines, " */"]


def jsdoc_text() -> str:
    """games/static/games/wire.js: a typedef for every model and every file's type."""
    definitions: dict[str, dict[str, Any]] = {}
    roots: list[tuple[str, dict[str, Any]]] = []
    for name, (_, _, typedef) in SCHEMAS.items():
        schema = json_schema(name)
        for key, value in schema.pop("$defs", {}).items():
            if definitions.setdefault(key, value) != value:
                raise ValueError(f"two models named {key} in the schemas")
        if typedef in definitions:  # the file's type is one of the models, by name
            continue
        own = {k: v for k, v in schema.items() if not k.startswith("$")}
        if "properties" in own:
            definitions[typedef] = own
        else:  # a union: a typedef of its own
            roots.append((typedef, own))
    lines = [
        "// @ts-check",
        "// The types of the frames of docs/protocol.md, as JSDoc typedefs for TypeScript's",
        f"// checker (tests/test_lint_js.py). Generated from games/wire.py by `{COMMAND}`",
        "// (the same models as the JSON Schemas of docs/schemas/): do not edit. No page",
        '// loads this module; a checked one reads a type as import("./wire.js").StateFrame.',
        "",
    ]
    for typedef, schema in [*roots, *sorted(definitions.items())]:
        schema = {**schema, "description": "" if typedef in dict(roots) else schema.get(
            "description", "")}
        lines += [*_typedef(typedef, schema), ""]
    return "\n".join([*lines, "export {};", ""])


def files() -> dict[str, str]:
    """Every generated file (its path from the repository's root) and its text."""
    generated = {f"{SCHEMA_DIR}/{name}": _json(json_schema(name)) for name in SCHEMAS}
    generated[JSDOC_FILE] = jsdoc_text()
    return generated


def stale() -> list[str]:
    """The generated files whose committed text differs from what the models give."""
    return [
        path for path, text in files().items()
        if not (ROOT / path).exists() or (ROOT / path).read_text() != text
    ]


def write() -> list[str]:
    """Write every file that changed; returns their paths."""
    changed = stale()
    texts = files()
    for path in changed:
        (ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / path).write_text(texts[path])
    return changed
