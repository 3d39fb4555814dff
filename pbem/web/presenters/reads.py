"""Read-only queries the pages need (no writes: every change goes through pbem.services)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from pbem.extensions import db
from pbem.models import ActionLog, Game, Seat, history
from pbem.models.deadline import Deadline
from pbem.words import since, when


def log_rows(game: Game) -> list[ActionLog]:
    return history.all_steps(game.id)


def since_last_turn(game: Game, seat: int, names: list[str]) -> list[str]:
    """ "Since your last turn", as the turn mail says it (``pbem.words.since``)."""
    recent = history.since_own_last(game.id, seat)
    return since.since_last_turn(recent, game.seats, history.autopilot_runs_in(game.id, recent),
                                 names, seat, history.turn_opening(game.id, seat))


def deadline_of(game: Game, seat: int) -> datetime | None:
    """When the awaited seat's turn times out, if the scheduler has set a deadline."""
    row = db.session.execute(
        select(Deadline.deadline_at).where(
            Deadline.game_id == game.id, Deadline.seat == seat, Deadline.done_at.is_(None)
        ).order_by(Deadline.deadline_at).limit(1)
    ).scalar_one_or_none()
    if row is not None and row.tzinfo is None:
        row = row.replace(tzinfo=UTC)
    return row


def time_left(game: Game, seat: int | None, now: datetime | None = None) -> str:
    if seat is None or game.status != "active":
        return ""
    due = deadline_of(game, seat)
    if due is None:
        return f"{game.time_per_move_hours} h per move"
    hours = (due - (now or datetime.now(UTC))).total_seconds() / 3600
    if hours <= 0:
        return "time is up"
    if hours < 1:
        return f"{max(1, int(hours * 60))} min left"
    return f"{int(hours)} h left"


def banks(game: Game, awaited: int | None) -> str:
    """The players' time banks, as the mails show them (empty: a fixed time per move)."""
    bank = game.time_bank
    if bank is None or game.status in ("finished", "cancelled"):
        return ""
    return when.banks_line([
        (seat.name, bank.initial if seat.bank_seconds is None
         else timedelta(seconds=seat.bank_seconds), seat.index == awaited)
        for seat in sorted(game.seats, key=lambda s: s.index) if not seat.is_bot])


def seats_of_email(email: str) -> list[tuple[Game, Seat]]:
    """Every seat played from this address, newest game first."""
    rows = db.session.execute(
        select(Game, Seat).join(Seat, Seat.game_id == Game.id)
        .where(db.func.lower(Seat.email) == email.lower())
        .order_by(Game.created_at.desc())
    ).all()
    return [(g, s) for g, s in rows]


def game_by_public_id(public_id: str) -> Game | None:
    return db.session.execute(
        select(Game).where(Game.public_id == public_id)
    ).scalar_one_or_none()
