"""``games``, ``seats`` and ``action_log``: one game, its players and its history.

Persistence only: every rule is decided by ``pbem.engine``; ``pbem.services.games`` is the
one place that changes these rows. ``games.state`` is the engine's ``GameState.to_json()``;
the creation record (players, seed, options) plus ``action_log`` replays it exactly.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.clock import TimeBank, TimeoutPolicy
from pbem.engine.bots.levels import DEFAULT_LEVEL
from pbem.extensions import db

GAME_STATUSES = ("active", "paused", "finished", "cancelled")
NOTIFY_CHOICES = ("every_turn", "my_turn", "digest")
LOG_BY = ("player", "bot", "timeout", "host")


def utcnow() -> datetime:
    """Timestamps are stored in UTC; pages convert to each seat's timezone."""
    return datetime.now(UTC)


def new_public_id() -> str:
    """A 22-character URL-safe game id that never starts with ``-``.

    Ids are typed into ``pbem verify <id>`` and friends, where a leading dash would be read
    as an option.
    """
    while True:
        public_id = secrets.token_urlsafe(16)
        if not public_id.startswith("-"):
            return public_id


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game. ``version`` is bumped by every change so forms and API calls can be stale."""

    __tablename__ = "games"
    __table_args__ = (CheckConstraint(_one_of("status", GAME_STATUSES), name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(22), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(16), default="active")
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # server-side secret: never in a view
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    turn_start_state: Mapped[dict[str, Any]] = mapped_column(JSON)
    turn_steps: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    host_email: Mapped[str] = mapped_column(String(254))
    host_seat: Mapped[int | None] = mapped_column(Integer)
    time_per_move_hours: Mapped[int] = mapped_column(Integer, default=48)
    timeout_policy: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The bot level (pbem.engine.bots.levels) that plays a timed-out, absent or resigned player's
    # turns; the host sets it (migration 0006).
    autopilot_level: Mapped[str] = mapped_column(String(16), default=DEFAULT_LEVEL,
                                                 server_default=DEFAULT_LEVEL)
    # The strong computer players' budget, rollouts per decision (migration 0016_bot_budget;
    # ``engine.bots.levels.MIN_BUDGET`` to ``MAX_BUDGET``), chosen by the host. None: the
    # strong bot's default (``ROLLOUTS``), read when it decides, so a new default reaches
    # every game that never chose.
    bot_budget: Mapped[int | None] = mapped_column(Integer)
    # The host link's counter (migration 0010_season): replacing a leaked host link bumps
    # it, and every host link issued before stops working (``pbem.services.host_links``).
    host_link_counter: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The game this is the rematch of (migration 0010_season); unique: one rematch per game,
    # so the chain of rematches, the group's season, has no branches (``pbem.models.season``).
    rematch_of: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), unique=True)
    thread_message_id: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.index", cascade="all, delete-orphan"
    )

    @property
    def time_bank(self) -> TimeBank | None:
        """The game's time bank (kept in its timeout policy), or None: a fixed time per move."""
        return TimeoutPolicy.from_json(self.timeout_policy).bank

    def seat(self, index: int) -> Seat:
        """The seat row playing engine seat ``index``."""
        for seat in self.seats:
            if seat.index == index:
                return seat
        raise LookupError(f"game {self.public_id} has no seat {index}")


class PlayedByServer:
    """``autopilot`` for anything with ``is_bot`` and ``resigned``: a seat row, or the plain
    copy of one that the submission hot path reads with SQLAlchemy Core (``LockedGame``)."""

    @property
    def autopilot(self) -> bool:
        """True when the server plays this seat: a computer player, or a resigned human."""
        return bool(self.is_bot or self.resigned)  # type: ignore[attr-defined]


class Seat(PlayedByServer, db.Model):  # type: ignore[name-defined,misc]
    """A player's chair. Bumping ``link_counter`` revokes every link issued for it."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "index", name="uq_seats_game_id_index"),
        CheckConstraint(_one_of("notify", NOTIFY_CHOICES), name="notify"),
        # The digest step reads only the seats due now (a range scan of this index), and
        # its repair pass only the digest seats left without a time (migration 0015).
        Index("ix_seats_next_digest_at", "next_digest_at"),
        Index("ix_seats_digest_unset", "game_id",
              postgresql_where=text("notify = 'digest' AND next_digest_at IS NULL"),
              sqlite_where=text("notify = 'digest' AND next_digest_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    email: Mapped[str | None] = mapped_column(String(254))  # None for a computer player
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_level: Mapped[str | None] = mapped_column(String(16))  # a computer player's level
    colour: Mapped[str] = mapped_column(String(16))
    faction: Mapped[str | None] = mapped_column(String(40))
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    notify: Mapped[str] = mapped_column(String(16), default="every_turn")
    link_counter: Mapped[int] = mapped_column(Integer, default=0)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    absent: Mapped[bool] = mapped_column(Boolean, default=False)
    consecutive_timeouts: Mapped[int] = mapped_column(Integer, default=0)
    email_failing: Mapped[bool] = mapped_column(Boolean, default=False)
    # Deadlines (migration 0004, pbem.services.deadlines): quiet hours in minutes after local
    # midnight (no reminder then), and the vacation that stops this seat's clock.
    quiet_start: Mapped[int] = mapped_column(Integer, default=22 * 60, server_default="1320")
    quiet_end: Mapped[int] = mapped_column(Integer, default=8 * 60, server_default="480")
    vacation_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    vacation_days_used: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Daily digest (migration 0005, pbem.mail.outbound.digest): the time of the last digest
    # mailed to a "digest" seat, and the last action_log seq it covered (the next one starts
    # after it).
    digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    digest_seq: Mapped[int | None] = mapped_column(Integer)
    # When this seat's next digest is due (UTC; migration 0015_digest_due): the seat's next
    # local morning after its last digest. None: no digest (another choice, or the game is
    # over). Kept right by ``pbem.models.digest_due`` on every ORM write and by the digest
    # step after each digest, so a tick reads only the seats due, never every digest seat.
    next_digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Time bank (migration 0011_time_bank, ``clock.TimeBank``): the seconds this seat's bank
    # held when its current or next wait began; None: the game's whole bank (not yet used),
    # or a game with a fixed time per move.
    bank_seconds: Mapped[int | None] = mapped_column(Integer)
    # Table talk in this seat's mails (migration 0012_table_talk): "At the table since your
    # last turn" in every game mail, unless the player turned it off in their settings.
    table_talk_mail: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # Notices in chat apps (migration 0013_notices, pbem.mail.outbound.chat): the seat's
    # handle on the table channel's service (a hand-off post mentions it), and after how many
    # hours without a visit or a move a "your turn" escalates to its next channel (None: off).
    chat_handle: Mapped[str | None] = mapped_column(String(64))
    escalate_hours: Mapped[int | None] = mapped_column(Integer)

    game: Mapped[Game] = relationship(back_populates="seats")

    @property
    def level(self) -> str | None:
        """The level a computer player plays at (rows from before levels: greedy); None for
        a person."""
        return (self.bot_level or DEFAULT_LEVEL) if self.is_bot else None


class ActionLog(db.Model):  # type: ignore[name-defined,misc]
    """Append-only history: one row per step of a turn that was handed over."""

    __tablename__ = "action_log"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_action_log_game_id_seq"),
        CheckConstraint(_one_of("by", LOG_BY), name="by"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    notation: Mapped[str] = mapped_column(Text)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    by: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
