"""Handing a seat to a new player: the newcomer's invitation says what happened and carries a
private recap of the seat; if the game waits for the seat, its turn or decision mail goes out
at once with a fresh clock; the old player is told and their links open a page saying so.
Every refusal says why and changes nothing."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import tokens
from pbem.engine import GameState
from pbem.extensions import db
from pbem.models import ActionLog, Outbox
from pbem.models.deadline import REMINDER, TIMEOUT
from pbem.services import host
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.games import cancel_game
from pbem.words.glossary import agenda
from tests.scheduler.conftest import (
    FakeClock,
    awaited_seat,
    finish_draft,
    game_of,
    new_game,
    open_rows,
    play_turn,
)

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

ADDRESSES = ("ana@example.org", "ben@example.org", "cy@example.org")


def _new_mails(after: int) -> list[Outbox]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(Outbox).where(Outbox.id > after)
                                   .order_by(Outbox.id)))


def _last_id() -> int:
    return int(db.session.scalar(sa.select(sa.func.coalesce(sa.func.max(Outbox.id), 0))) or 0)


def _factions_game() -> int:
    game_id = new_game(seed=11)  # Factions: the engine's default
    finish_draft(game_id)
    return game_id


def test_on_the_seats_turn_the_newcomer_gets_the_recap_then_the_turn_mail(
        clock_app: Flask, clock: FakeClock) -> None:
    game_id = _factions_game()
    for _ in range(3):  # a round and more, so there is a last round to tell
        seat = awaited_seat(game_id)
        assert seat is not None
        play_turn(game_id, seat)
    seat = awaited_seat(game_id)
    assert seat is not None
    game = game_of(game_id)
    old_name, old_link = game.seat(seat).name, tokens.make_seat_link(game, game.seat(seat))
    mine = [agenda(a).name for a in GameState.from_json(game.state).seats[seat].agendas]
    theirs = {agenda(a).name for i, s in enumerate(GameState.from_json(game.state).seats)
              if i != seat for a in s.agendas} - set(mine)
    clock.at(5)
    first = _last_id()
    host.substitute_seat(game_id, seat, "zoe@example.org", name="Zoe")
    mails = _new_mails(first)
    assert [(m.kind, m.to_addr) for m in mails] == [
        ("substitution", "zoe@example.org"), ("handed_over", ADDRESSES[seat]),
        ("your_turn", "zoe@example.org")]
    welcome = mails[0].text_body
    assert welcome.startswith(f"Invitation · you take over {old_name}'s seat · your move now")
    assert f"has handed you {old_name}'s seat in Night Shift" in welcome
    assert "Your seat (private: only you see this)" in welcome
    assert all(name in welcome for name in mine) and mine
    assert "Faction       " in welcome and "The last round" in welcome
    assert f"{old_name} " in welcome.split("The last round", 1)[1]  # the old player's moves
    for mail in mails:
        body = mail.text_body + (mail.html_body or "")
        assert not any(name in body for name in theirs), mail.kind  # no one else's Agendas
        assert not any(a in body for a in ADDRESSES if a != mail.to_addr), mail.kind
    told = mails[1].text_body
    assert "handed your seat in Night Shift to another player, Zoe" in told
    assert not any(name in told for name in mine)  # the seat's cards are not theirs now
    rows = open_rows(game_id)
    assert [r.kind for r in rows] == [REMINDER, REMINDER, TIMEOUT]
    assert min(r.due_at for r in rows).replace(tzinfo=clock.now.tzinfo) > clock.now
    client = clock_app.test_client()
    page = client.get(f"/play/{old_link}")
    assert page.status_code == 401
    assert "handed this seat of Night Shift over to another player on" in page.get_data(
        as_text=True)
    log = db.session.scalars(sa.select(ActionLog).where(ActionLog.game_id == game_id)
                             .order_by(ActionLog.seq.desc())).first()
    assert log is not None and log.notation == "substitute" and log.by == "host"
    assert "zoe@" not in str(log.events)  # the log keeps names, never an address


def test_a_decision_of_the_seat_goes_to_the_newcomer_at_once(clock_app: Flask) -> None:
    game_id = new_game(seed=11)  # Factions: the engine's default
    drafter = awaited_seat(game_id)  # the Faction draft: a decision
    assert drafter is not None
    first = _last_id()
    host.substitute_seat(game_id, drafter, "zoe@example.org")
    kinds = [(m.kind, m.to_addr) for m in _new_mails(first)]
    assert kinds[-1] == ("decision", "zoe@example.org")
    assert game_of(game_id).seat(drafter).name == "zoe"  # not the old player's name


def test_off_the_seats_turn_no_turn_mail_and_the_clock_goes_on(clock_app: Flask) -> None:
    game_id = new_game()
    waiting = awaited_seat(game_id)
    other = next(i for i in range(3) if i != waiting)
    before = [(r.kind, r.due_at) for r in open_rows(game_id)]
    first = _last_id()
    host.substitute_seat(game_id, other, "zoe@example.org", name="Zoe")
    mails = _new_mails(first)
    assert [m.kind for m in mails] == ["substitution", "handed_over"]
    assert "when it is yours you get a mail" in mails[0].text_body
    assert [(r.kind, r.due_at) for r in open_rows(game_id)] == before


@pytest.mark.parametrize("case", ["no_seat", "computer", "bad_address", "same", "cancelled"])
def test_a_refused_substitution_says_why_and_changes_nothing(clock_app: Flask,
                                                             case: str) -> None:
    game_id = new_game([("Ana", "ana@example.org", "UTC"), ("HAL", None, "UTC"),
                        ("Cy", "cy@example.org", "UTC")])
    if case == "cancelled":
        cancel_game(game_id)
    seat, address = {"no_seat": (5, "zoe@example.org"), "computer": (1, "zoe@example.org"),
                     "bad_address": (2, "zoe at example"), "same": (2, "Cy@example.org"),
                     "cancelled": (2, "zoe@example.org")}[case]
    game = game_of(game_id)
    before = (game.version, [(s.email, s.link_counter) for s in game.seats], _last_id())
    with pytest.raises((NotAllowed, BadInput, GameNotActive)) as refused:
        host.substitute_seat(game_id, seat, address)
    words = {"no_seat": "no such seat", "computer": "computer player",
             "bad_address": "must be one plain address", "same": "plays this seat already",
             "cancelled": "cancelled"}[case]
    assert words in refused.value.message
    game = game_of(game_id)
    assert (game.version, [(s.email, s.link_counter) for s in game.seats], _last_id()) == before
