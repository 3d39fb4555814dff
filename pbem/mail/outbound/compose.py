"""Compose mails from templates (``templates/mail/<kind>.txt`` and ``.html``).

Game data reaches a mail only through ``engine.view(state, seat)`` (style habit 4): each
composer builds the view for the recipient's own seat, plus seat names and links. A mail to
one seat carries that seat's links only; names are shown, e-mail addresses never are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, render_template

from pbem import clock, tokens
from pbem.engine import (
    GameState,
    GameView,
    Preview,
    action_from_json,
    format_action,
    menu_previews,
    view,
)
from pbem.mail.outbound import links, move_lines, preheaders
from pbem.models import history
from pbem.models.game import Game, Seat
from pbem.words import describe, glossary, since

SUGGESTED_MOVES = 4  # how many moves a turn mail suggests
# Pending decisions that get the "decision needed" mail, even inside the seat's own turn.
DECISIONS = ("draft", "discard_agendas")


@dataclass(frozen=True)
class Mail:
    """A composed mail, before it has an address, a Message-ID or a row."""

    kind: str
    subject: str
    text: str
    html: str | None
    unsubscribe_url: str | None = None
    unsubscribe_mailto: str | None = None
    preheader: str = ""  # what the mail is about, first where an inbox shows it


def subject_of(game: Game) -> str:
    """One subject for every mail of a game, so mail clients keep them in one thread: Gmail
    starts a new thread when the subject changes at all, so what a mail is about goes in its
    preheader instead (docs/mail.md, "Subject and preheader")."""
    return f"Alien Frontiers: {game.name}"


def with_preheader(preheader: str, text: str) -> str:
    """The plain-text part opens with the preheader: clients without HTML preview its first
    line."""
    return f"{preheader}\n\n{text}" if preheader else text


def seat_view(game: Game, seat_index: int | None) -> GameView:
    return view(GameState.from_json(game.state), seat_index)


def own_agendas(picture: GameView) -> list[str]:
    """The viewing seat's face-down Agendas (none in a spectator's view)."""
    you = picture.get("you")
    return you["agendas"] if you is not None else []


def names_of(game: Game) -> list[str]:
    return [s.name for s in sorted(game.seats, key=lambda s: s.index)]


def score_names(game: Game) -> list[str]:
    """The names of the score lines: a computer player's with its level, "HAL (computer,
    Strong)"."""
    return [f"{s.name} (computer, {(s.level or '').capitalize()})" if s.is_bot else s.name
            for s in sorted(game.seats, key=lambda s: s.index)]


def local_time(when: datetime, tz_name: str | None) -> str:
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    local = when.astimezone(zone)
    return local.strftime("%A %-d %B, %H:%M ") + (local.tzname() or str(zone))


def hours_from_now(due: datetime) -> str:
    """ "47 hours from now", "40 minutes from now", or "passed"."""
    left = clock.as_utc(due) - clock.now()
    if left <= timedelta(0):
        return "passed"
    hours = round(left / timedelta(hours=1))
    if hours >= 1:
        return f"{hours} hour{'s' if hours != 1 else ''} from now"
    minutes = max(1, round(left / timedelta(minutes=1)))
    return f"{minutes} minute{'s' if minutes != 1 else ''} from now"


def time_left(due: datetime | None) -> str:
    """ "47 h left", "40 min left", "time is up", or "no deadline" (paused, or no clock)."""
    if due is None:
        return "no deadline"
    left = clock.as_utc(due) - clock.now()
    if left <= timedelta(0):
        return "time is up"
    hours = left // timedelta(hours=1)  # whole hours: never more time than there is
    if hours >= 1:
        return f"{hours} h left"
    return f"{max(1, round(left / timedelta(minutes=1)))} min left"


def deadline_words(due: datetime | None, tz_name: str | None) -> str:
    """ "Thursday 3 December, 18:00 WET, 47 hours from now" in the seat's time zone."""
    if due is None:
        return "none while the game is paused"
    return f"{local_time(due, tz_name)}, {hours_from_now(due)}"


# --- links -----------------------------------------------------------------------------

def turn_url(game: Game, seat: Seat) -> str:
    token = tokens.make_seat_link(game, seat)
    return links.external(("play.turn", "play.page", "pages.turn"), f"/play/{token}",
                          seat_link=token)


def move_url(turn_link: str, notation: str) -> str:
    """The turn page (``turn_url``) with a move prefilled (``?move=``): it opens a form,
    never plays it."""
    return links.with_query(turn_link, move=notation)


def replay_url(game: Game) -> str:
    return links.external(("games.replay", "pages.replay"), f"/games/{game.public_id}/replay",
                          public_id=game.public_id)


def game_url(game: Game) -> str:
    return links.external(("games.show", "pages.game"), f"/games/{game.public_id}",
                          public_id=game.public_id)


def host_url(game: Game) -> str:
    token = tokens.make_host_token(game.public_id)
    return links.external(("host.page", "pages.host"), f"/host/{token}", host_token=token)


def rematch_url(game: Game) -> str:
    """The create form prefilled with this game's players: for the host only, since the form
    shows their addresses (so the link carries the host token, not the public id)."""
    token = tokens.make_host_token(game.public_id)
    return links.with_query(links.external(("games.new_game",), "/games/new"), rematch=token)


def unsubscribe_url(game: Game, seat: Seat) -> str:
    token = tokens.make_unsubscribe_token(game.public_id, seat.index, seat.link_counter)
    return links.external(("mail.unsubscribe",), f"/mail/unsubscribe/{token}", token=token)


# --- context shared by the game mails ---------------------------------------------------

def board_rows(picture: GameView, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for s in picture["seats"]:
        rows.append({
            "name": names[s["seat"]], "letter": s["letter"], "colour": s["colour"],
            "fuel": s["fuel"], "ore": s["ore"], "colonies_left": s["colonies"],
            "cards": [describe.card(c) for c in s["cards"]], "vp": s["vp"],
        })
    return rows


def territory_rows(picture: GameView, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for tid, counts in sorted(picture["colonies"].items()):
        owner = picture["controllers"].get(tid)
        placed = ", ".join(f"{names[i]} {n}" for i, n in enumerate(counts) if n)
        rows.append({"name": describe.territory(tid),
                     "controller": names[owner] if owner is not None else "nobody",
                     "colonies": placed or "none"})
    return rows


def private_panel(picture: GameView, seat_index: int) -> dict[str, Any]:
    """The reader's own faction and Agendas (face-down ones by name: only in their own mail,
    ruling A5)."""
    me = picture["seats"][seat_index]
    fid = me.get("faction")
    text = glossary.FACTIONS.get(fid) if fid else None
    secret = [describe.agenda(a) for a in own_agendas(picture)]
    shown = [describe.agenda(a) for a in me.get("revealed", [])]
    agendas = [f"{n} (secret)" for n in secret] + [f"{n} (revealed)" for n in shown]
    return {
        "my_faction": text.name if text else None,
        "my_faction_power": text.owner if text else None,
        "my_agendas": agendas,
    }


def factions_line(picture: GameView, names: list[str]) -> str:
    """ "Ana: Corex Conglomerated · Ben: Scavenger Fleet" (chosen boards are public)."""
    chosen = [(names[s["seat"]], s["faction"]) for s in picture["seats"] if s.get("faction")]
    return " · ".join(f"{n}: {describe.faction(f)}" for n, f in chosen)


def revealed_line(picture: GameView, names: list[str]) -> str:
    """Every player's revealed Agendas (public once revealed, ruling A5)."""
    parts = [f"{names[s['seat']]}: {', '.join(describe.agenda(a) for a in s['revealed'])}"
             for s in picture["seats"] if s.get("revealed")]
    return " · ".join(parts)


def _effect_worth(seen: Preview) -> float:
    """How good a docking looks from the engine's preview of it (gains, not costs)."""
    return (20.0 * (seen.decision == "land") + 25.0 * seen.launched
            + 12.0 * len(seen.ships_built) + 6.0 * (seen.decision == "raid")
            + 2.0 * max(0, seen.ore) + max(0, seen.fuel) + 1.5 * seen.hub_steps
            + 2.0 * seen.may_cycle + 3.0 * bool(seen.trade_rates))


def _action_worth(action: dict[str, Any], seen: Preview | None = None) -> float:
    kind = action.get("kind")
    if kind == "dock":
        worth = _effect_worth(seen) if seen is not None else 0.0
        return worth + 0.1 * float(sum(action.get("values", [])))
    return {"launch": 30.0, "land": 22.0, "claim": 18.0, "buy_relic": 16.0, "steal": 8.0,
            "steal_card": 9.0, "trade": 5.0, "cycle": 0.5, "end_raid": 0.0,
            "end_turn": -10.0}.get(str(kind), -5.0)


def suggested_moves(picture: GameView, names: list[str],
                 previews: Mapping[str, Preview] | None = None) -> list[dict[str, str]]:
    """A few good legal moves from the seat's view, one per kind of move and facility, each
    with the engine's preview of its effect (``previews``, by notation)."""
    legal = picture.get("legal") or []
    agendas = own_agendas(picture)
    seen = previews or {}
    notations = [format_action(action_from_json(action)) for action in legal]
    ranked = sorted(zip(legal, notations, strict=True),
                    key=lambda pair: _action_worth(pair[0], seen.get(pair[1])), reverse=True)
    done: set[tuple[Any, ...]] = set()
    moves = []
    for action, notation in ranked:
        key = (action.get("kind"), action.get("facility"), action.get("territory"))
        if key in done:
            continue
        done.add(key)
        moves.append(move_lines.move_line(action, notation, seen.get(notation), names, agendas))
        if len(moves) == SUGGESTED_MOVES:
            break
    return moves


def since_last_turn(game: Game, seat_index: int, names: list[str]) -> list[str]:
    """Plain-English sentences for every logged step after this seat's own last one."""
    recent = history.since_own_last(game.id, seat_index)
    return since.since_last_turn(recent, game.seats, history.autopilot_runs_in(game.id, recent),
                                 names, seat_index)


@dataclass(frozen=True)
class Recipient:
    """A seat's view and turn link, made once per mail: they are the costly parts of composing
    it, and a mail uses each several times."""

    picture: GameView
    turn_link: str
    previews: Mapping[str, Preview] = field(default_factory=dict)  # the engine's, by notation


def recipient_of(game: Game, seat: Seat) -> Recipient:
    state = GameState.from_json(game.state)
    picture = view(state, seat.index)
    return Recipient(picture, turn_url(game, seat),
                     menu_previews(state, picture.get("legal") or [], picture.get("picks") or []))


def game_context(game: Game, seat: Seat | None,
                 recipient: Recipient | None = None) -> dict[str, Any]:
    """The context every game mail shares; ``recipient``: the seat's, if made already."""
    index = seat.index if seat is not None else None
    picture = recipient.picture if recipient is not None else seat_view(game, index)
    names = names_of(game)
    context: dict[str, Any] = {
        "game_name": game.name, "round": picture["round"], "names": names,
        "board": board_rows(picture, score_names(game)),
        "territories": territory_rows(picture, names),
        "game_url": game_url(game), "recipient": seat.name if seat is not None else "host",
        "view": picture, "factions_line": factions_line(picture, names),
        "revealed_line": revealed_line(picture, names),
    }
    if seat is not None:
        me = picture["seats"][seat.index]
        active = picture["awaiting"] if picture["awaiting"] is not None else picture["active"]
        context.update(private_panel(picture, seat.index))
        context.update(
            me=board_rows(picture, names)[seat.index], me_view=me,
            turn_url=recipient.turn_link if recipient is not None else turn_url(game, seat),
            unsubscribe_url=unsubscribe_url(game, seat),
            active_name=names[active] if active is not None else None,
            notify=seat.notify,
        )
    return context


def warm_templates(app: Flask) -> None:
    """Compile every mail template into ``app``'s Jinja cache. The preloaded gunicorn master
    calls this, so forked workers share the compiled templates instead of each compiling
    them at its first hand-over."""
    env = app.jinja_env
    for name in env.list_templates(filter_func=lambda name: name.startswith("mail/")):
        env.get_template(name)


def render(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    text = render_template(f"mail/{kind}.txt", **context)
    html = render_template(f"mail/{kind}.html", **context)
    return text, html


def _game_mail(kind: str, game: Game, seat: Seat | None, recipient: Recipient | None = None,
               **extra: Any) -> Mail:
    context = game_context(game, seat, recipient)
    context.update(extra)
    preheader = str(context.get("preheader") or "")
    text, html = render(kind, context)
    return Mail(kind=kind, subject=subject_of(game), text=with_preheader(preheader, text),
                html=html, unsubscribe_url=context.get("unsubscribe_url"), preheader=preheader)


# --- the mails --------------------------------------------------------------------------

def invitation(game: Game, seat: Seat) -> Mail:
    names = names_of(game)
    host_seat = game.host_seat
    if host_seat == seat.index:
        invited = f"you have set up {game.name}, a game of Alien Frontiers by e-mail."
    elif isinstance(host_seat, int):
        invited = f"{names[host_seat]} invited you to play Alien Frontiers by e-mail: {game.name}."
    else:
        invited = f"you are invited to play Alien Frontiers by e-mail: {game.name}."
    return _game_mail("invitation", game, seat,
                      others=[n for i, n in enumerate(names) if i != seat.index],
                      hours=game.time_per_move_hours, invited=invited,
                      preheader=preheaders.invitation(
                          names[host_seat] if isinstance(host_seat, int)
                          and host_seat != seat.index else None),
                      options_words=glossary.options_words(game.options or {},
                                                           game.time_per_move_hours),
                      factions=bool((game.options or {}).get("factions")))


def your_turn(game: Game, seat: Seat, deadline: datetime | None = None) -> Mail:
    """``deadline``: the one the service has just scheduled for this wait (None: no clock
    runs for the seat)."""
    names = names_of(game)
    recipient = recipient_of(game, seat)
    picture = recipient.picture
    pending = picture.get("pending") or {}
    if pending.get("kind") in DECISIONS and pending.get("seat") == seat.index:
        return decision_needed(game, seat, recipient, deadline)  # e.g. seat 0's draft choice
    return _game_mail(
        "your_turn", game, seat, recipient,
        rolled=picture["turn"]["rolled"], moves=_suggested_move_links(recipient, names),
        since=since_last_turn(game, seat.index, names),
        deadline=deadline_words(deadline, seat.timezone),
        preheader=preheaders.your_turn(picture["round"], time_left(deadline)),
    )


def decision_needed(game: Game, seat: Seat, recipient: Recipient | None = None,
                    deadline: datetime | None = None) -> Mail:
    """What to decide, the choices with their effects, and who waits on it; ``deadline`` as
    for ``your_turn``."""
    names = names_of(game)
    recipient = recipient or recipient_of(game, seat)
    picture = recipient.picture
    pending = picture.get("pending") or {}
    kind = pending.get("kind")
    choices = _choices(recipient, names)
    what = "your decision"
    if kind == "draft":
        what = "choose your Faction"
        later = [names[i] for i in range(seat.index - 1, -1, -1)]
        question = ("Choose your Faction board for the rest of the game. The draft goes from "
                    "the last seat to the first")
        question += (f"; after you: {', then '.join(later)}" if later
                     else "; you choose last, and then the game begins")
        question += "."
        waiting = "Everyone is waiting for your choice."
    elif kind == "discard_agendas":
        count = int(pending.get("count", 1))
        what = f"discard {count} Agenda{'s' if count != 1 else ''}"
        limit = describe.hand_limit_words(describe.agenda_limit_of(
            picture["seats"][seat.index].get("cards") or []))
        question = (f"You hold more Agendas than you may: the limit is {limit}. Discard "
                    f"{count} face-down Agenda{'s' if count != 1 else ''}")
        question += " (the Multiverse Window is gone)." if pending.get("why") else "."
        if pending.get("optional"):
            what = "keep or discard Agendas"
            question = ("You drew Agendas: keep them, or discard face-down ones (you must "
                        f"if you hold more than the limit of {limit}).")
        active = picture["active"]
        waiting = ("Your turn goes on once you decide." if active == seat.index
                   else f"{names[active]}'s turn cannot go on until you choose.")
    else:
        question = "Your decision is needed."
        waiting = f"{names[picture['active']]}'s turn cannot go on until you choose."
    return _game_mail(
        "decision", game, seat, recipient, pending_kind=kind, question=question,
        waiting=waiting,
        choices=choices, moves=choices, active_turn=names[picture["active"]],
        since=since_last_turn(game, seat.index, names) if kind == "draft" else [],
        deadline=deadline_words(deadline, seat.timezone),
        preheader=preheaders.decision(what, time_left(deadline)),
    )


def _choices(recipient: Recipient, names: list[str]) -> list[dict[str, str]]:
    """Every legal answer to the decision, each with its effect and a link to its form."""
    picture = recipient.picture
    agendas = own_agendas(picture)
    choices = []
    for action in picture.get("legal") or []:
        notation = format_action(action_from_json(action))
        effect = ""
        if action.get("kind") == "choose_faction":
            text = glossary.FACTIONS.get(action["faction"])
            if text:
                effect = f"Its facility: {text.facility} You, the owner: {text.owner}"
        elif action.get("kind") == "discard_agenda":
            index = int(action.get("index", 0))
            if 1 <= index <= len(agendas):
                card = glossary.agenda(agendas[index - 1])
                effect = f"In game: {card.in_game}. End of game: {card.end_game}."
        choices.append({"label": describe.describe_action(action, names, agendas),
                        "notation": notation, "effect": effect,
                        "url": move_url(recipient.turn_link, notation)})
    return choices


def others_turn(game: Game, seat: Seat, actor: int, events: list[dict[str, Any]],
                autopilot: str | None = None) -> Mail:
    """One line per thing that happened; ``autopilot`` says why the server played it."""
    names = names_of(game)
    picture = seat_view(game, seat.index)
    return _game_mail("others_turn", game, seat, actor=names[actor], autopilot=autopilot,
                      happened=describe.describe(events, names, viewer=seat.index),
                      preheader=preheaders.others_turn(
                          names[actor], picture["round"], _awaited_name(picture, names),
                          seat.name, autopilot=autopilot is not None))


def _awaited_name(picture: GameView, names: list[str]) -> str | None:
    """Whose move the game waits for now (None once it is over)."""
    if picture.get("result"):
        return None
    awaited = picture["awaiting"] if picture["awaiting"] is not None else picture["active"]
    return names[awaited] if isinstance(awaited, int) else None


def autopilot_played(game: Game, seat: Seat, events: list[dict[str, Any]]) -> Mail:
    """To a seat whose time ran out: what the autopilot did for it and how to come back.
    Sent once when the seat is marked absent, not for the turns played while it is away."""
    names = names_of(game)
    return _game_mail("autopilot", game, seat, absent=bool(seat.absent),
                      happened=describe.describe(events, names, viewer=seat.index),
                      hours=game.time_per_move_hours,
                      preheader=preheaders.autopilot(bool(seat.absent)))


def reminder(game: Game, seat: Seat, due: datetime) -> Mail:
    """The same private summary as the turn mail: the roll and the suggested move links."""
    names = names_of(game)
    recipient = recipient_of(game, seat)
    picture = recipient.picture
    return _game_mail("reminder", game, seat, recipient,
                      deadline=deadline_words(due, seat.timezone),
                      left=hours_from_now(due).replace(" from now", ""),
                      rolled=picture["turn"]["rolled"] if picture["active"] == seat.index
                      else None,
                      moves=_suggested_move_links(recipient, names),
                      preheader=preheaders.reminder(time_left(due), picture["round"]))


def digest(game: Game, seat: Seat, rows: list[Any]) -> Mail:
    """The daily digest: one line per step of the others since the last digest."""
    names = names_of(game)
    lines = since.sentences(rows, game.seats, history.autopilot_runs_in(game.id, rows), names,
                            seat.index)
    happened = lines[-since.SINCE_LIMIT * 2:]
    picture = seat_view(game, seat.index)
    return _game_mail("digest", game, seat, happened=happened,
                      preheader=preheaders.digest(len(happened),
                                                  _awaited_name(picture, names), seat.name))


def vacation(game: Game, seat: Seat, away: str, until: datetime) -> Mail:
    """Another player is on vacation: their clock stops until ``until``."""
    until_words = local_time(until, seat.timezone)
    return _game_mail("vacation", game, seat, away=away, until=until_words,
                      preheader=preheaders.vacation(away, until_words))


# Pause, resume and extend: every player hears of each, from pbem.mail.outbound.notify.

def paused(game: Game, seat: Seat, since: datetime) -> Mail:
    """The host stopped the game's clock at ``since``, until they resume it."""
    return _game_mail("paused", game, seat, since=local_time(since, seat.timezone))


def resumed(game: Game, seat: Seat, awaited: int | None, due: datetime | None) -> Mail:
    """The host started the clock again; ``due``: the awaited seat's deadline now."""
    return _game_mail("resumed", game, seat, **_whose_deadline(game, seat, awaited, due))


def deadline_extended(game: Game, seat: Seat, awaited: int, hours: int, due: datetime) -> Mail:
    """The host gave the awaited seat ``hours`` more; ``due`` is its new deadline."""
    return _game_mail("deadline_extended", game, seat, hours=hours,
                      **_whose_deadline(game, seat, awaited, due))


def _whose_deadline(game: Game, seat: Seat, awaited: int | None,
                    due: datetime | None) -> dict[str, Any]:
    names = names_of(game)
    whose = names[awaited] if awaited is not None and awaited < len(names) else None
    return {"whose": whose, "yours": awaited == seat.index,
            "due_words": deadline_words(due, seat.timezone) if due is not None else None}


def game_over(game: Game, seat: Seat | None) -> Mail:
    names = names_of(game)
    picture = seat_view(game, seat.index if seat is not None else None)
    result = picture.get("result") or {}
    winners = [names[i] for i in result.get("winners", []) if isinstance(i, int)]
    rows = board_rows(picture, score_names(game))
    for i, row in enumerate(rows):
        scores = result.get("scores") or []
        if i < len(scores):
            row["vp"] = scores[i]
        revealed = result.get("agendas") or []
        row["agendas"] = [describe.agenda(a) for a in (revealed[i] if i < len(revealed) else [])]
        row["won"] = i in (result.get("winners") or [])
    scores = sorted(rows, key=lambda r: (-r["vp"]["total"], not r["won"]))
    tiebreak = result.get("tiebreak")
    is_host = seat is None or game.host_seat == seat.index
    return _game_mail("game_over", game, seat, winners=winners, scores=scores,
                      tiebreak=glossary.TIEBREAK_WORDS.get(tiebreak, tiebreak) if tiebreak
                      else None,
                      factions=bool((game.options or {}).get("factions")),
                      replay_url=replay_url(game),
                      rematch_url=rematch_url(game) if is_host else None,
                      preheader=preheaders.game_over(
                          winners, scores[0]["vp"]["total"] if scores else None))


def magic_link(url: str) -> Mail:
    context = {"url": url, "preheader": preheaders.MAGIC_LINK}
    text, html = render("magic_link", context)
    return Mail(kind="magic_link", subject="Your Alien Frontiers games",
                text=with_preheader(preheaders.MAGIC_LINK, text), html=html,
                preheader=preheaders.MAGIC_LINK)


def email_failing(game: Game, seat: Seat, error: str) -> Mail:
    context = game_context(game, None)
    preheader = preheaders.email_failing(seat.name)
    context.update(seat_name=seat.name, error=error, host_url=host_url(game),
                   preheader=preheader)
    text, html = render("email_failing", context)
    return Mail(kind="email_failing", subject=subject_of(game),
                text=with_preheader(preheader, text), html=html, preheader=preheader)


def _suggested_move_links(recipient: Recipient, names: list[str]) -> list[dict[str, str]]:
    moves = suggested_moves(recipient.picture, names, recipient.previews)
    for move in moves:
        move["url"] = move_url(recipient.turn_link, move["notation"])
    return moves
