"""``app_meta``: small key/value facts about the installation itself.

The first migration records ``schema_created_at`` here. The model exists so that the
metadata Alembic compares against matches the schema (otherwise autogenerate would propose
dropping the table).
"""

from __future__ import annotations

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db


class AppMeta(db.Model):  # type: ignore[name-defined,misc]
    """One installation fact, e.g. ``schema_created_at`` → ISO 8601 timestamp."""

    __tablename__ = "app_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
