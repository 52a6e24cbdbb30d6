"""The readable form of the bot API's OpenAPI document (``/api/docs/``): the context of
templates/api/reference.html, made from the document alone, so the page says exactly
what ``/api/openapi.json`` says (its words in English, as the API speaks; the page's
own words in the reader's language). Server-rendered (no script, no style attribute): it
works offline and under the site's Content Security Policy."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy as _

METHODS = ("get", "post", "put", "patch", "delete")
REF = "#/components/schemas/"
# The page's own words, in the reader's language (the document's stay English).
TOKEN = {
    "required": _("Token required"),
    "optional": _("Token optional"),
    "none": _("No token"),
}


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _error_codes(schema: dict[str, Any]) -> list[str] | None:
    """The codes of a refusal's schema (``ErrorBody`` whose code is one of them)."""
    parts = schema.get("allOf", [])
    if len(parts) != 2 or parts[0] != {"$ref": REF + "ErrorBody"}:
        return None
    error = parts[1].get("properties", {}).get("error", {})
    codes = error.get("properties", {}).get("code", {}).get("enum")
    return list(codes) if isinstance(codes, list) else None


def schema_view(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema as the page shows it: a link to a named schema (a refusal's with its
    codes), or its JSON."""
    ref = schema.get("$ref", "")
    if ref.startswith(REF) and len(schema) == 1:
        return {"ref": ref.removeprefix(REF)}
    codes = _error_codes(schema)
    if codes is not None:
        return {"ref": "ErrorBody", "codes": codes}
    return {"json": _json(schema)}


def _token(operation: dict[str, Any]) -> str:
    security = operation.get("security", [])
    if not security:
        return str(TOKEN["none"])
    return str(TOKEN["optional"] if {} in security else TOKEN["required"])


def _content(content: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"media_type": media_type, **schema_view(entry.get("schema", {}))}
        for media_type, entry in content.items()
    ]


def _operation(path: str, method: str, operation: dict[str, Any]) -> dict[str, Any]:
    body = operation.get("requestBody")
    return {
        "id": operation["operationId"],
        "method": method.upper(),
        "path": path,
        "summary": operation.get("summary", ""),
        "description": operation.get("description", ""),
        "token": _token(operation),
        "parameters": [
            {
                "name": p["name"],
                "where": p["in"],
                "required": p.get("required", False),
                "description": p.get("description", ""),
                "schema": json.dumps(p.get("schema", {}), ensure_ascii=False),
            }
            for p in operation.get("parameters", [])
        ],
        "body": None
        if body is None
        else {
            "required": body.get("required", False),
            "description": body.get("description", ""),
            "content": _content(body.get("content", {})),
        },
        "responses": [
            {
                "status": status,
                "description": response.get("description", ""),
                "headers": sorted(response.get("headers", {})),
                "content": _content(response.get("content", {})),
            }
            for status, response in operation.get("responses", {}).items()
        ],
    }


def page(document: dict[str, Any]) -> dict[str, Any]:
    """The template's context: the document's operations by tag, and its schemas."""
    tags: dict[str, list[dict[str, Any]]] = {t["name"]: [] for t in document.get("tags", [])}
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                operation = item[method]
                tag = (operation.get("tags") or ["other"])[0]
                tags.setdefault(tag, []).append(_operation(path, method, operation))
    return {
        "info": document["info"],
        "openapi": document["openapi"],
        "groups": [{"tag": tag, "operations": ops} for tag, ops in tags.items() if ops],
        "schemas": [
            {"name": name, "json": _json(schema)}
            for name, schema in document["components"]["schemas"].items()
        ],
        "security": [
            {"name": name, **scheme}
            for name, scheme in document["components"].get("securitySchemes", {}).items()
        ],
    }
