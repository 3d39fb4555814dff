"""Each game mail's template context, from what it is given (pure: no database, no clock, no
state; ``pbem.mail.outbound.given`` gathered all of it).

One function per mail kind, named as its template (``templates/mail/<kind>.txt``): it
returns ``summary.common(given)`` (the board, the reader's panel and links) with the kind's
own words and its ``preheader``. ``pbem.mail.outbound.compose`` renders it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.engine.bots.levels import LEVEL_NAMES
from pbem.mail.outbound import decisions, preheaders, suggestions
from pbem.mail.outbound.given import Given, SeatFacts
from pbem.mail.outbound.summary import awaited_name, common, own_agendas
from pbem.words import describe, glossary
from pbem.words.result import season_standings, standings, tiebreak_words
from pbem.words.since import SINCE_LIMIT
from pbem.words.when import (
    clock_words,
    deadline_words,
    hours_from_now,
    local_time,
    time_left,
)

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
    picture, seat = given.picture, _reader(given)
    return suggestions.suggested_moves(given.ranked, given.game.names,
                                       own_agendas(picture), given.previews, given.turn_url,
                                       fuel=int(picture["seats"][seat.index]["fuel"]),
                                       view=picture)


def invitation(given: Given, host_url: str | None = None,
               rematch_of: str | None = None) -> Context:
    """``host_url``: the host's own invitation carries the host page; ``rematch_of``: the
    name of the game this one is the rematch of."""
    seat, names, host_seat = _reader(given), given.game.names, given.game.host_seat
    if rematch_of is not None:
        who = "you" if host_seat == seat.index else (
            names[host_seat] if isinstance(host_seat, int) else "the host")
        invited = (f"{who} started a rematch of {rematch_of}: {given.game.name}, with the "
                   "same players and options.")
    elif host_seat == seat.index:
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
                 host_url=host_url,
                 options_words=glossary.options_words(dict(given.game.options), hours,
                                                        given.game.bank),
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
                 clock_words=clock_words(given.game.time_per_move_hours, given.game.bank),
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
    return _with(given, since=local_time(since, _reader(given).timezone),
                 preheader=preheaders.paused())


def resumed(given: Given, awaited: int | None, due: datetime | None) -> Context:
    """The host started the clock again; ``due``: the awaited seat's deadline now."""
    whose = _whose_deadline(given, awaited, due)
    return _with(given, **whose, preheader=preheaders.resumed(whose["whose"], whose["yours"]))


def deadline_extended(given: Given, awaited: int, hours: int, due: datetime) -> Context:
    """The host gave the awaited seat ``hours`` more; ``due`` is its new deadline."""
    whose = _whose_deadline(given, awaited, due)
    return _with(given, hours=hours, **whose, preheader=preheaders.deadline_extended(
        whose["whose"], whose["yours"], hours, time_left(due, given.now)))


def _whose_deadline(given: Given, awaited: int | None, due: datetime | None) -> Context:
    seat, names = _reader(given), given.game.names
    whose = names[awaited] if awaited is not None and awaited < len(names) else None
    return {"whose": whose, "yours": awaited == seat.index,
            "due_words": deadline_words(due, seat.timezone, given.now)
            if due is not None else None}


def game_over(given: Given, replay_url: str, start_url: str | None,
              rematch_url: str | None) -> Context:
    """The ranking with each player's points by source and the tie-break, the revealed
    Agendas, how the game ended, the season's table (from its second game on), and play
    again: the host's one-tap rematch page (``start_url``) and prefilled form
    (``rematch_url``), or a player's way to ask for one (their turn page)."""
    picture, names = given.picture, given.game.names
    resigned = {s.index for s in given.game.seats if s.resigned}
    ranking = standings(picture, given.game.score_names, resigned)
    winners = [names[r["seat"]] for r in ranking if r["won"]]
    season = list(given.season)
    return _with(given, winners=winners, ranking=ranking,
                 tiebreak=tiebreak_words(picture, names), factions=given.game.factions,
                 ended=list(given.ended),
                 season=season_standings(season) if len(season) > 1 else [],
                 season_games=len(season), replay_url=replay_url, start_url=start_url,
                 rematch_url=rematch_url,
                 preheader=preheaders.game_over(
                     winners, ranking[0]["total"] if ranking else None))


def email_failing(given: Given, seat_name: str, error: str, host_url: str) -> Context:
    """To the host: mail to ``seat_name`` is refused (``error``), and where to fix it."""
    return _with(given, seat_name=seat_name, error=error, host_url=host_url,
                 preheader=preheaders.email_failing(seat_name))


def notice_paused(given: Given, channel: str, reason: str, settings_url: str) -> Context:
    """A chat channel (``channel``: what pages show of it) failed five times in a row and is
    paused; ``reason``: the last failure, its secret parts blanked."""
    return _with(given, channel=channel, reason=reason, settings_url=settings_url,
                 preheader=preheaders.notice_paused(channel))


def is_host(given: Given) -> bool:
    """The reader is the game's host (the host gets the rematch link)."""
    return given.seat is None or given.game.host_seat == given.seat.index


# --- a group's season: resigning, handing a seat over, cancelling, host links, rematches ----

def level_name(level: str) -> str:
    """The autopilot's level in words ("Greedy"), as the host set it."""
    return LEVEL_NAMES.get(level, level.capitalize())


def resigned(given: Given, who: int, played: list[dict[str, Any]]) -> Context:
    """Seat ``who`` resigned: its own confirmation (the reader is ``who``), or the news for
    another player (or a host who does not play). ``played``: the events the autopilot
    played of the turn in progress, said here once instead of in an others'-turn mail."""
    names = given.game.names
    seat = given.seat
    yours = seat is not None and seat.index == who
    viewer = seat.index if seat is not None else None
    return _with(given, who=names[who], yours=yours,
                 level=level_name(given.game.autopilot_level),
                 played=describe.describe(played, names, viewer=viewer),
                 preheader=preheaders.resigned(names[who], yours,
                                               awaited_name(given.picture, names),
                                               seat.name if seat is not None else None))


def cancelled(given: Given) -> Context:
    """The host cancelled the game: when, and that nothing more happens in it."""
    names, host_seat = given.game.names, given.game.host_seat
    host = names[host_seat] if isinstance(host_seat, int) else None
    when = local_time(given.game.finished_at or given.now, _reader(given).timezone)
    return _with(given, host=host, when=when, preheader=preheaders.cancelled(host, when))


def hosting(given: Given, host_url: str) -> Context:
    """To a host who does not play: the game is made, and here is the host page."""
    hours = given.game.time_per_move_hours
    return _with(given, host_url=host_url, hours=hours, preheader=preheaders.hosting(),
                 options_words=glossary.options_words(dict(given.game.options), hours,
                                                        given.game.bank))


def host_link(given: Given, host_url: str) -> Context:
    """The host replaced the host link: the new one (the old one no longer works)."""
    return _with(given, host_url=host_url, preheader=preheaders.host_link())


def substitution(given: Given, old_name: str) -> Context:
    """The newcomer's invitation: who handed them which seat, the seat's private recap (its
    hand, Agendas and Faction, from the seat's own view) and the last round. Only to the
    seat's new address: the recap is the seat's secret."""
    seat, picture, names = _reader(given), given.picture, given.game.names
    host_seat = given.game.host_seat
    awaiting = picture["awaiting"]
    hours = given.game.time_per_move_hours
    return _with(given, old_name=old_name,
                 host=names[host_seat] if isinstance(host_seat, int) else None,
                 rolled=picture["turn"]["rolled"] if awaiting == seat.index else None,
                 yours_now=awaiting == seat.index, recap=list(given.recap),
                 others=[n for i, n in enumerate(names) if i != seat.index],
                 options_words=glossary.options_words(dict(given.game.options), hours,
                                                        given.game.bank),
                 preheader=preheaders.substitution(old_name, awaiting == seat.index))


def handed_over(given: Given, seat_index: int, old_name: str) -> Context:
    """To the player whose seat the host handed to someone else, from a spectator's view
    (the seat's cards are no longer theirs to see)."""
    new_name = given.game.names[seat_index]
    return _with(given, old_name=old_name, new_name=new_name,
                 when=local_time(given.now, "UTC"),
                 preheader=preheaders.handed_over(new_name))


def rematch_asked(given: Given, seat_index: int, when: datetime, start_url: str) -> Context:
    """To the host: a player asks for a rematch, and the page that starts it."""
    asker = given.game.names[seat_index]
    return _with(given, asker=asker, when=local_time(when, "UTC"), start_url=start_url,
                 preheader=preheaders.rematch_asked(asker))
