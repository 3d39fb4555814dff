"""The reply address, ``play+<token>@domain`` (docs/mail.md "Playing by reply"): outbound
mail puts a seat's own in its ``Reply-To``, and inbound mail is matched to a seat by the token
read back from its recipients. Both halves use this module, and neither imports the other.
"""

from __future__ import annotations

from flask import current_app

from pbem import tokens


def inbound_address() -> str | None:
    value = current_app.config.get("INBOUND_ADDRESS")
    return str(value) if value else None


def reply_address(game: tokens.RepliedGame, seat: tokens.LinkedSeat) -> str | None:
    """``play+<token>@domain`` for ``seat`` at the position ``game`` is in now (None when
    replies are not configured)."""
    base = inbound_address()
    if not base:
        return None
    local, _, domain = base.partition("@")
    return f"{local}+{tokens.make_reply_token(game, seat)}@{domain}"


def token_of(address: str) -> str | None:
    """The part after the ``+`` of an address at our inbound mailbox, case-folded."""
    base = inbound_address()
    if not base:
        return None
    local, _, domain = address.strip().lower().partition("@")
    base_local, _, base_domain = base.lower().partition("@")
    name, plus, token = local.partition("+")
    if domain != base_domain or name != base_local or not plus:
        return None
    return token
