"""The mails: one function per kind, each rendering ``templates/mail/<kind>.txt`` and
``.html`` from what the mail is given.

Every game mail is made the same three steps: ``given.gather`` reads the rows, the view of
the recipient's own seat (style habit 4), its links and the clock; a pure builder of
``pbem.mail.outbound.context`` turns that into the template's words; ``_mail`` renders it.
A mail to one seat carries that seat's links only; names are shown, e-mail addresses never
are. Adding a kind: docs/mail.md, "Adding a mail".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import Flask, render_template

from pbem.extensions import db
from pbem.mail.outbound import context, links, preheaders, summary, table_talk
from pbem.mail.outbound.decisions import is_decision
from pbem.mail.outbound.given import Given, digest_lines, gather
from pbem.models import history
from pbem.models.game import Game, Seat

# Every kind of mail, as its template is named (``tests/mail/test_every_kind.py`` builds each
# one and resolves each of its links): a new kind joins this list.
KINDS = ("invitation", "your_turn", "decision", "others_turn", "autopilot", "reminder",
         "digest", "vacation", "paused", "resumed", "deadline_extended", "game_over",
         "email_failing", "magic_link", "reply_answer",
         # a group's season (issue 26)
         "resigned", "cancelled", "hosting", "host_link", "substitution", "handed_over",
         "rematch_asked",
         # notices in chat apps (issue 27)
         "notice_paused")


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


def warm_templates(app: Flask) -> None:
    """Compile every mail template into ``app``'s Jinja cache. The preloaded gunicorn master
    calls this, so forked workers share the compiled templates instead of each compiling
    them at its first hand-over."""
    env = app.jinja_env
    for name in env.list_templates(filter_func=lambda name: name.startswith("mail/")):
        env.get_template(name)


def render(kind: str, values: dict[str, Any]) -> tuple[str, str]:
    text = render_template(f"mail/{kind}.txt", **values)
    html = render_template(f"mail/{kind}.html", **values)
    if values.get("table_talk"):  # the HTML part has it from mail/_layout.html
        text = table_talk.insert_block(text, render_template("mail/_table_talk.txt", **values))
    return text, html


def game_context(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The context every game mail shares (the reply answer's, ``answers.py``)."""
    return summary.common(gather(game, seat))


def _mail(kind: str, game: Game, values: dict[str, Any]) -> Mail:
    preheader = str(values.get("preheader") or "")
    text, html = render(kind, values)
    return Mail(kind=kind, subject=subject_of(game), text=with_preheader(preheader, text),
                html=html, unsubscribe_url=values.get("unsubscribe_url"), preheader=preheader)


# --- the mails --------------------------------------------------------------------------

def invitation(game: Game, seat: Seat) -> Mail:
    """The host's own invitation carries the host link; a rematch's says whose rematch."""
    before = db.session.get(Game, game.rematch_of) if game.rematch_of else None
    host_url = links.host_url(game) if game.host_seat == seat.index else None
    return _mail("invitation", game, context.invitation(
        gather(game, seat), host_url, before.name if before is not None else None))


def your_turn(game: Game, seat: Seat, deadline: datetime | None = None) -> Mail:
    """``deadline``: the one the service has just scheduled for this wait (None: no clock
    runs for the seat)."""
    given = gather(game, seat, turn=True, reply=True, since=True)
    if is_decision(given.picture, seat.index):
        return decision_needed(game, seat, given, deadline)  # e.g. seat 0's draft choice
    return _mail("your_turn", game, context.your_turn(given, deadline))


def decision_needed(game: Game, seat: Seat, given: Given | None = None,
                    deadline: datetime | None = None) -> Mail:
    """What to decide, the choices with their effects, and who waits on it; ``deadline`` as
    for ``your_turn``."""
    given = given or gather(game, seat, turn=True, reply=True, since=True)
    return _mail("decision", game, context.decision(given, deadline))


def others_turn(game: Game, seat: Seat, actor: int, events: list[dict[str, Any]],
                autopilot: str | None = None) -> Mail:
    """One line per thing that happened; ``autopilot`` says why the server played it."""
    return _mail("others_turn", game,
                 context.others_turn(gather(game, seat), actor, events, autopilot))


def autopilot_played(game: Game, seat: Seat, events: list[dict[str, Any]]) -> Mail:
    """To a seat whose time ran out: what the autopilot did for it and how to come back.
    Sent once when the seat is marked absent, not for the turns played while it is away."""
    return _mail("autopilot", game, context.autopilot(gather(game, seat), events))


def reminder(game: Game, seat: Seat, due: datetime) -> Mail:
    """The same private summary as the turn mail: the roll and the suggested move links."""
    return _mail("reminder", game, context.reminder(gather(game, seat, turn=True), due))


def digest(game: Game, seat: Seat, rows: list[Any]) -> Mail:
    """The daily digest: one line per step of the others since the last digest."""
    return _mail("digest", game,
                 context.digest(gather(game, seat), digest_lines(game, seat, rows)))


def vacation(game: Game, seat: Seat, away: str, until: datetime) -> Mail:
    """Another player is on vacation: their clock stops until ``until``."""
    return _mail("vacation", game, context.vacation(gather(game, seat), away, until))


# Pause, resume and extend: every player hears of each, from pbem.mail.outbound.notify.

def paused(game: Game, seat: Seat, since: datetime) -> Mail:
    """The host stopped the game's clock at ``since``, until they resume it."""
    return _mail("paused", game, context.paused(gather(game, seat), since))


def resumed(game: Game, seat: Seat, awaited: int | None, due: datetime | None) -> Mail:
    """The host started the clock again; ``due``: the awaited seat's deadline now."""
    return _mail("resumed", game, context.resumed(gather(game, seat), awaited, due))


def deadline_extended(game: Game, seat: Seat, awaited: int, hours: int, due: datetime) -> Mail:
    """The host gave the awaited seat ``hours`` more; ``due`` is its new deadline."""
    return _mail("deadline_extended", game,
                 context.deadline_extended(gather(game, seat), awaited, hours, due))


def game_over(game: Game, seat: Seat | None) -> Mail:
    """To each player, and to the host who does not play (``seat`` None): the host's copy
    links to the one-tap rematch page, a player's to their page's "ask the host"."""
    given = gather(game, seat, end=True)
    host = context.is_host(given)
    return _mail("game_over", game, context.game_over(
        given, links.replay_url(game), links.host_rematch_url(game) if host else None,
        links.rematch_url(game) if host else None))


def email_failing(game: Game, seat: Seat, error: str) -> Mail:
    """To the host: mail to ``seat`` is refused."""
    values = context.email_failing(gather(game, None), seat.name, error, links.host_url(game))
    return _mail("email_failing", game, values)


def notice_paused(game: Game, seat: Seat | None, channel: str, reason: str) -> Mail:
    """To the seat whose chat channel was paused after five failures in a row, or to the
    host (``seat`` None) for the game's table channel: why, and where to resume it."""
    settings = links.turn_url(game, seat) if seat is not None else links.host_url(game)
    return _mail("notice_paused", game,
                 context.notice_paused(gather(game, seat), channel, reason, settings))


def magic_link(url: str) -> Mail:
    values = {"url": url, "preheader": preheaders.MAGIC_LINK}
    text, html = render("magic_link", values)
    return Mail(kind="magic_link", subject="Your Alien Frontiers games",
                text=with_preheader(preheaders.MAGIC_LINK, text), html=html,
                preheader=preheaders.MAGIC_LINK)



# --- a group's season: resigning, handing a seat over, cancelling, host links, rematches ----

def resigned(game: Game, seat: Seat | None, who: int, played: list[dict[str, Any]]) -> Mail:
    """Seat ``who`` resigned: its own confirmation (``seat`` is ``who``), the news for another
    player, or for a host who does not play (``seat`` None)."""
    return _mail("resigned", game, context.resigned(gather(game, seat), who, played))


def cancelled(game: Game, seat: Seat) -> Mail:
    """The host cancelled the game."""
    return _mail("cancelled", game, context.cancelled(gather(game, seat)))


def hosting(game: Game) -> Mail:
    """To a host who does not play: the game is made; the host page."""
    return _mail("hosting", game, context.hosting(gather(game, None), links.host_url(game)))


def host_link(game: Game) -> Mail:
    """The host's new host link, after replacing a leaked one."""
    return _mail("host_link", game, context.host_link(gather(game, None), links.host_url(game)))


def substitution(game: Game, seat: Seat, old_name: str) -> Mail:
    """The newcomer's invitation to the seat ``old_name`` played, with its private recap."""
    return _mail("substitution", game,
                 context.substitution(gather(game, seat, recap_as=old_name), old_name))


def handed_over(game: Game, seat_index: int, old_name: str) -> Mail:
    """To the player whose seat was handed to someone else (a spectator's view)."""
    return _mail("handed_over", game,
                 context.handed_over(gather(game, None), seat_index, old_name))


def rematch_asked(game: Game, seat_index: int, when: datetime) -> Mail:
    """To the host: a player asks for a rematch."""
    return _mail("rematch_asked", game, context.rematch_asked(
        gather(game, None), seat_index, when, links.host_rematch_url(game)))


def follows_resignation(game: Game, seat_index: int, steps: int) -> bool:
    """The ``steps`` just logged of the seat finish the turn it resigned in
    (``history.follows_resignation``): ``notify.turn_ended`` leaves them to the resigned
    mail."""
    return history.follows_resignation(game.id, seat_index, steps)
