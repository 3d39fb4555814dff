"""Database models. Every model module is imported here so that Alembic sees it.

The app factory imports this package; ``flask db migrate`` then compares ``db.metadata`` (all
models listed here) with the database.
"""

from pbem.models.meta import AppMeta

__all__ = ["AppMeta"]
