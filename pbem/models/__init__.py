"""Database models. Every model module is imported here so that Alembic sees it.

The app factory imports this package; ``flask db migrate`` then compares ``db.metadata`` (all
models listed here) with the database.
"""

from pbem.models import digest_due  # noqa: F401  (the hook that keeps seats.next_digest_at)
from pbem.models.deadline import Deadline
from pbem.models.game import ActionLog, Game, Seat
from pbem.models.inbound import InboundMessage
from pbem.models.magic_link import MagicLink
from pbem.models.meta import AppMeta
from pbem.models.notice import Notice, NoticeChannel, NoticeEscalation
from pbem.models.outbox import Outbox
from pbem.models.table_talk import TableMessage

__all__ = ["ActionLog", "AppMeta", "Deadline", "Game", "InboundMessage", "MagicLink", "Notice",
           "NoticeChannel", "NoticeEscalation", "Outbox", "Seat", "TableMessage"]
