"""What a request must pass before a view reads it: a JSON body of bounded depth, and the
inbound webhook's secret. Shared by the views and the rate limits."""

from __future__ import annotations

import hmac
import json
from typing import Any

from flask import current_app, request

from pbem.config import WEBHOOK_SECRET_MIN  # a shorter one is refused at start, and here


class NotAnObject(ValueError):
    """The body is not a JSON object of bounded depth; the message says which."""


def depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (walked without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, level + 1) for child in children)
    return deepest


def json_object(raw: bytes, max_depth: int) -> dict[str, Any]:
    """``raw`` as a JSON object; deeper than ``max_depth`` is refused (Python's parser would
    otherwise run out of stack on ``[[[[…``: a 500)."""
    nested = f"The body is nested too deeply: at most {max_depth} levels of lists and objects."
    try:
        data = json.loads(raw)
    except RecursionError:
        raise NotAnObject(nested) from None
    except ValueError:  # not JSON, or not UTF-8
        raise NotAnObject("The body must be a JSON object.") from None
    if not isinstance(data, dict):
        raise NotAnObject("The body must be a JSON object.")
    if depth(data) > max_depth:
        raise NotAnObject(nested)
    return data


def webhook_secret_is_right() -> bool:
    """The request's ``<secret>`` is the configured ``INBOUND_WEBHOOK_SECRET`` (compared in
    constant time; a secret shorter than ``WEBHOOK_SECRET_MIN`` is never right)."""
    expected = str(current_app.config.get("INBOUND_WEBHOOK_SECRET") or "")
    given = str((request.view_args or {}).get("secret", ""))
    if len(expected) < WEBHOOK_SECRET_MIN:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())
