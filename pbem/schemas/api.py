"""Request bodies of the JSON API (docs/api.md).

The schemas check shape only; what an action means is the engine's business
(``action_from_json`` / ``parse_action`` give its readable refusals).
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema


class UndoRequest(Schema):
    """``{"version": n}``: the version the client saw."""

    class Meta:
        unknown = RAISE

    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class ActionRequest(UndoRequest):
    """``{"version": n, "action": {...}}`` or ``{"version": n, "notation": "dock 3 3 …"}``."""

    action = fields.Dict(keys=fields.String())
    notation = fields.String(validate=validate.Length(min=1, max=200))

    @validates_schema
    def exactly_one_form(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if ("action" in data) == ("notation" in data):
            raise ValidationError("Give either 'action' (JSON) or 'notation' (text), not both.")


def first_error(messages: Any) -> str:
    """One readable sentence out of marshmallow's nested error dict."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            text = first_error(value)
            return text if key == "_schema" else f"{key}: {text}"
    if isinstance(messages, list) and messages:
        return first_error(messages[0])
    return str(messages)
