"""Reads of ``action_log``, the game's history, for the mail, the pages and the archive.

What happened since a seat's own last step ("Since your last turn" of the turn mail and the
turn page), and the waits the timeout autopilot played for a seat since its own last move
(the notes "Cy ran out of time; the autopilot played for them:"). Their sentences are
``pbem.words.since``; these functions only read rows.

The hand-over's mail reads inside the transaction that wrote the log, so these are prebuilt
Core statements: building a statement and the ORM's handling of it cost more than the query
itself. Their rows are plain ``Row``s with ``seq``, ``seat``, ``by`` (and ``round``,
``events``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import BindParameter, Row, bindparam, func, select

from pbem.extensions import db
from pbem.models.game import ActionLog

SINCE_ROWS = 200  # the newest rows read after a seat's own last step
LogRow = Row[Any, Any, Any, Any, Any]  # seq, seat, by, round, events

_log = ActionLog.__table__
_GAME: BindParameter[int] = bindparam("game_id")
_SEAT: BindParameter[int] = bindparam("seat")


def _last_seq(*where: Any) -> Any:
    return (select(func.coalesce(func.max(_log.c.seq), 0))
            .where(_log.c.game_id == _GAME, *where).scalar_subquery())


# the seat's own steps since its last move as a player (``autopilot_runs``)
_SEAT_SINCE_OWN_MOVE = (
    select(_log.c.seq, _log.c.by)
    .where(_log.c.game_id == _GAME, _log.c.seat == _SEAT,
           _log.c.seq > _last_seq(_log.c.seat == _SEAT, _log.c.by == "player"))
    .order_by(_log.c.seq)
)
# the newest steps after the seat's own last one (``since_own_last``): only the rows after it
# are read, not the whole recent log
_SINCE_OWN_LAST = (
    select(_log.c.seq, _log.c.seat, _log.c.by, _log.c.round, _log.c.events)
    .where(_log.c.game_id == _GAME, _log.c.seq > _last_seq(_log.c.seat == _SEAT))
    .order_by(_log.c.seq.desc()).limit(SINCE_ROWS)
)

# the events of the seat's own last step (``turn_opening``)
_OWN_LAST_EVENTS = (
    select(_log.c.events)
    .where(_log.c.game_id == _GAME, _log.c.seq == _last_seq(_log.c.seat == _SEAT))
)


def all_steps(game_id: int) -> list[ActionLog]:
    """Every logged step of the game, in order (the log and replay pages, the export)."""
    return list(db.session.execute(
        select(ActionLog).where(ActionLog.game_id == game_id).order_by(ActionLog.seq)
    ).scalars())


def since_own_last(game_id: int | None, seat: int) -> list[LogRow]:
    """The steps logged after ``seat``'s own last one (at most ``SINCE_ROWS``, the newest),
    oldest first. None of them is the seat's."""
    if game_id is None:  # a game not flushed yet has no history
        return []
    rows = db.session.execute(_SINCE_OWN_LAST, {"game_id": game_id, "seat": seat}).all()
    recent: list[LogRow] = []
    for row in rows:
        if row.seat == seat:
            break
        recent.append(row)
    recent.reverse()
    return recent


def turn_opening(game_id: int | None, seat: int) -> list[dict[str, Any]]:
    """The events that opened the next turn inside ``seat``'s own last step, when that step
    ended its turn: the next player's turn start, start-of-turn income and roll (they are
    logged with the end that caused them, so ``since_own_last`` does not read them)."""
    if game_id is None:
        return []
    events = db.session.execute(_OWN_LAST_EVENTS, {"game_id": game_id, "seat": seat}
                                ).scalar_one_or_none() or []
    ended = next((i for i, ev in enumerate(events)
                  if ev.get("kind") == "turn_ended" and ev.get("seat") == seat), None)
    return [] if ended is None else [dict(ev) for ev in events[ended + 1:]]


def autopilot_runs(game_id: int | None, seat: int) -> list[int]:
    """The waits the timeout autopilot played for ``seat`` since the seat's own last move,
    oldest first, each as the ``seq`` of its first logged step. One wait is one run of the
    seat's steps in the log (another seat's step ends it)."""
    if game_id is None:
        return []
    rows = db.session.execute(_SEAT_SINCE_OWN_MOVE, {"game_id": game_id, "seat": seat}).all()
    runs: list[list[Any]] = []
    for row in rows:
        if runs and row.seq == runs[-1][-1].seq + 1:
            runs[-1].append(row)
        else:
            runs.append([row])
    return [run[0].seq for run in runs if any(r.by == "timeout" for r in run)]


def autopilot_runs_in(game_id: int | None, rows: Iterable[Any]) -> dict[int, Sequence[int]]:
    """``autopilot_runs`` of each seat the timeout autopilot played in ``rows`` (log rows
    with ``seat`` and ``by``): what ``pbem.words.since`` needs to explain them."""
    seats = sorted({row.seat for row in rows if row.by == "timeout"})
    return {seat: autopilot_runs(game_id, seat) for seat in seats}


# -- a group's season: the server's records among the steps (issue 26) -------------------------

SERVER_RECORDS = ("resign", "substitute")  # log rows the server writes that are not moves
_LOG_ROW_BACK = (
    select(_log.c.seat, _log.c.action)
    .where(_log.c.game_id == _GAME).order_by(_log.c.seq.desc())
    .offset(bindparam("back")).limit(1)
)
_RECENT = (
    select(_log.c.seq, _log.c.seat, _log.c.action, _log.c.events)
    .where(_log.c.game_id == _GAME).order_by(_log.c.seq.desc()).limit(SINCE_ROWS)
)


def follows_resignation(game_id: int | None, seat: int, steps: int) -> bool:
    """True when the ``steps`` just logged of ``seat`` come straight after its own
    resignation: the autopilot finished the turn the seat resigned in."""
    if game_id is None:
        return False
    row = db.session.execute(_LOG_ROW_BACK, {"game_id": game_id, "back": steps}).first()
    return (row is not None and row.seat == seat
            and (row.action or {}).get("kind") == "resign")


def last_turns(game_id: int | None, turns: int) -> list[dict[str, Any]]:
    """The events of the latest ``turns`` turns (one run of a seat's logged steps each),
    oldest first, the server's records left out."""
    if game_id is None:
        return []
    runs: list[list[Any]] = []
    for row in db.session.execute(_RECENT, {"game_id": game_id}):
        if (row.action or {}).get("kind") in SERVER_RECORDS:
            continue
        if runs and runs[-1][-1].seat == row.seat:
            runs[-1].append(row)
        elif len(runs) == turns:
            break
        else:
            runs.append([row])
    return [event for run in reversed(runs) for row in reversed(run)
            for event in row.events or ()]
