"""``magic_links``: the "my games" sign-in links that were mailed, by the hash of their key.

The link itself is a random key (nothing in it can be read); only its SHA-256 is stored, so
the table cannot be used to sign in either. ``address`` is the normalised form
(``pbem.mail.addresses.address_key``) that the dashboard compares every seat's address with.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db


class MagicLink(db.Model):  # type: ignore[name-defined,misc]
    """One mailed sign-in link; it opens the dashboard of ``address`` until ``expires_at``."""

    __tablename__ = "magic_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    address: Mapped[str] = mapped_column(String(320), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
