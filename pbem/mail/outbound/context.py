"""Each game mail's template context, from what it is given (pure: no database, no clock, no
state; ``pbem.mail.outbound.given`` gathered all of it).

One function per mail kind, named as its template (``templates/mail/<kind>.txt``): it
returns ``summary.common(given)`` (the board, the reader's panel and links) with the kind's
own words and its ``preheader``. ``pbem.mail.outbound.compose`` renders it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.mail.outbound import decisions, preheaders, suggestions
from pbem.mail.outbound.given import Given, SeatFacts
from pbem.mail.outbound.summary import awaited_name, board_rows, common, own_agendas
from pbem.words import describe, glossary
from pbem.words.since import SINCE_LIMIT
from pbem.words.when import deadline_words, hours_from_now, local_time, time_left

Context = dict[str, Any]


def _with(given: Given, **extra: Any) -> Context:
    context = common(given)
    context.update(extra)
    return context


def _reader(given: Given) -> SeatFacts:
    assert given.seat is not None, "a mail to a seat"
    return given.seat


def suggested_moves(given: Given) -> list[dict[str, str]]:
    """The turn mail's and the reminder's few moves, each with its link."""
    return suggestions.suggested_moves(given.ranked, given.game.names,
                                       own_agendas(given.picture), given.previews,
                                       given.turn_url)


def invitation(given: Given) -> Context:
    seat, names, host_seat = _reader(given), given.game.names, given.game.host_seat
    if host_seat == seat.index:
        invited = f"you have set up {given.game.name}, a game of Alien Frontiers by e-mail."
    elif isinstance(host_seat, int):
        invited = (f"{names[host_seat]} invited you to play Alien Frontiers by e-mail: "
                   f"{given.game.name}.")
    else:
        invited = f"you are invited to play Alien Frontiers by e-mail: {given.game.name}."
    host = names[host_seat] if isinstance(host_seat, int) and host_seat != seat.index else None
    hours = given.game.time_per_move_hours
    return _with(given, others=[n for i, n in enumerate(names) if i != seat.index],
                 hours=hours, invited=invited, preheader=preheaders.invitation(host),
                 options_words=glossary.options_words(dict(given.game.options), hours),
                 factions=given.game.factions)


def your_turn(given: Given, deadline: datetime | None) -> Context:
    """``deadline``: the one the service has just scheduled for this wait (None: no clock
    runs for the seat)."""
    seat, picture = _reader(given), given.picture
    return _with(given, rolled=picture["turn"]["rolled"], moves=suggested_moves(given),
                 since=list(given.since), example=list(given.example),
                 deadline=deadline_words(deadline, seat.timezone, given.now),
                 preheader=preheaders.your_turn(picture["round"],
                                                time_left(deadline, given.now)))


def decision(given: Given, deadline: datetime | None) -> Context:
    """What to decide, the choices with their effects, and who waits on it."""
    seat, picture, names = _reader(given), given.picture, given.game.names
    asked = decisions.question(picture, seat.index, names)
    assert given.turn_url is not None
    choices = decisions.choices(picture, names, own_agendas(picture), given.turn_url)
    kind = (picture.get("pending") or {}).get("kind")
    return _with(given, pending_kind=kind, question=asked.question, waiting=asked.waiting,
                 choices=choices, moves=choices, active_turn=names[picture["active"]],
                 example=list(given.example),
                 since=list(given.since) if kind == "draft" else [],
                 deadline=deadline_words(deadline, seat.timezone, given.now),
                 preheader=preheaders.decision(asked.what, time_left(deadline, given.now)))


def others_turn(given: Given, actor: int, events: list[dict[str, Any]],
                autopilot: str | None) -> Context:
    """One line per thing that happened; ``autopilot`` says why the server played it."""
    seat, names = _reader(given), given.game.names
    return _with(given, actor=names[actor], autopilot=autopilot,
                 happened=describe.describe(events, names, viewer=seat.index),
                 preheader=preheaders.others_turn(
                     names[actor], given.picture["round"], awaited_name(given.picture, names),
                     seat.name, autopilot=autopilot is not None))


def autopilot(given: Given, events: list[dict[str, Any]]) -> Context:
    """To a seat whose time ran out: what the autopilot did for it and how to come back."""
    seat = _reader(given)
    return _with(given, absent=seat.absent,
                 happened=describe.describe(events, given.game.names, viewer=seat.index),
                 hours=given.game.time_per_move_hours,
                 preheader=preheaders.autopilot(seat.absent))


def reminder(given: Given, due: datetime) -> Context:
    """The same private summary as the turn mail: the roll and the suggested move links."""
    seat, picture = _reader(given), given.picture
    return _with(given, deadline=deadline_words(due, seat.timezone, given.now),
                 left=hours_from_now(due, given.now).replace(" from now", ""),
                 rolled=picture["turn"]["rolled"] if picture["active"] == seat.index else None,
                 moves=suggested_moves(given),
                 preheader=preheaders.reminder(time_left(due, given.now), picture["round"]))


def digest(given: Given, lines: list[str]) -> Context:
    """The daily digest: ``lines``, the others' steps since the last digest."""
    happened = lines[-SINCE_LIMIT * 2:]
    return _with(given, happened=happened, preheader=preheaders.digest(
        len(happened), awaited_name(given.picture, given.game.names), _reader(given).name))


def vacation(given: Given, away: str, until: datetime) -> Context:
    """Another player is on vacation: their clock stops until ``until``."""
    until_words = local_time(until, _reader(given).timezone)
    return _with(given, away=away, until=until_words,
                 preheader=preheaders.vacation(away, until_words))


def paused(given: Given, since: datetime) -> Context:
    """The host stopped the game's clock at ``since``, until they resume it."""
    return _with(given, since=local_time(since, _reader(given).timezone))


def resumed(given: Given, awaited: int | None, due: datetime | None) -> Context:
    """The host started the clock again; ``due``: the awaited seat's deadline now."""
    return _with(given, **_whose_deadline(given, awaited, due))


def deadline_extended(given: Given, awaited: int, hours: int, due: datetime) -> Context:
    """The host gave the awaited seat ``hours`` more; ``due`` is its new deadline."""
    return _with(given, hours=hours, **_whose_deadline(given, awaited, due))


def _whose_deadline(given: Given, awaited: int | None, due: datetime | None) -> Context:
    seat, names = _reader(given), given.game.names
    whose = names[awaited] if awaited is not None and awaited < len(names) else None
    return {"whose": whose, "yours": awaited == seat.index,
            "due_words": deadline_words(due, seat.timezone, given.now)
            if due is not None else None}


def game_over(given: Given, replay_url: str, rematch_url: str | None) -> Context:
    """Final scores with where each point came from, the revealed Agendas, the replay and,
    for the host, the rematch."""
    names = given.game.names
    result = given.picture.get("result") or {}
    winners = [names[i] for i in result.get("winners", []) if isinstance(i, int)]
    rows = board_rows(given.picture, given.game.score_names)
    for i, row in enumerate(rows):
        scores = result.get("scores") or []
        if i < len(scores):
            row["vp"] = scores[i]
        revealed = result.get("agendas") or []
        row["agendas"] = [describe.agenda(a) for a in (revealed[i] if i < len(revealed) else [])]
        row["won"] = i in (result.get("winners") or [])
    scores = sorted(rows, key=lambda r: (-r["vp"]["total"], not r["won"]))
    tiebreak = result.get("tiebreak")
    return _with(given, winners=winners, scores=scores,
                 tiebreak=glossary.TIEBREAK_WORDS.get(tiebreak, tiebreak) if tiebreak else None,
                 factions=given.game.factions, replay_url=replay_url, rematch_url=rematch_url,
                 preheader=preheaders.game_over(
                     winners, scores[0]["vp"]["total"] if scores else None))


def email_failing(given: Given, seat_name: str, error: str, host_url: str) -> Context:
    """To the host: mail to ``seat_name`` is refused (``error``), and where to fix it."""
    return _with(given, seat_name=seat_name, error=error, host_url=host_url,
                 preheader=preheaders.email_failing(seat_name))


def is_host(given: Given) -> bool:
    """The reader is the game's host (the host gets the rematch link)."""
    return given.seat is None or given.game.host_seat == given.seat.index
