"""The end of a game and the season: no others'-turn mail beside the game-over mail and never
"now it is X's turn" after the end; the game-over mail and page rank the players with their
points by source and the tie-break; the host starts the rematch in one tap (same seats,
levels and options; everyone mailed), any player can ask the host for one, ``pbem rematch``
does the same; a chain of rematches is the season, whose table is on the game-over page and
mail."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import tokens
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.services import play, rematch
from pbem.services.errors import GameNotActive

from .conftest import bot_choice, fresh, link, start


def _mails(game_id: int, kind: str | None = None) -> list[Outbox]:
    db.session.rollback()
    query = sa.select(Outbox).where(Outbox.game_id == game_id).order_by(Outbox.id)
    if kind:
        query = query.where(Outbox.kind == kind)
    return list(db.session.scalars(query))


def finish(game_id: int) -> Game:
    """Every human seat plays the greedy bot's moves through ``play.play`` (in-process:
    quicker than the API) until the game ends."""
    for _ in range(5000):
        game = fresh(game_id)
        if game.status != "active":
            return game
        state = GameState.from_json(game.state)
        seat = awaited(state)
        assert seat is not None
        play.play(game_id, seat, game.version, bot_choice(state, seat))
    raise AssertionError("the game did not end")


def _finished(players: int = 3, seed: int = 11, bot_seats: tuple[int, ...] = (2,)) -> Game:
    game = finish(start(players, seed=seed, bot_seats=bot_seats).id)
    assert game.status == "finished"
    return game


def test_the_end_is_one_mail_that_ranks_with_points_by_source(server: Flask) -> None:
    game = _finished()
    mails = _mails(game.id)
    assert not [m for m in mails if m.kind == "others_turn" and "The game is over" in m.text_body]
    over = [m for m in mails if m.kind == "game_over"]
    assert sorted(m.seat for m in over) == [0, 1]  # the computer seat gets none
    assert mails[-2:] == over  # nothing after the game-over mails
    for mail in mails:
        if "The game is over" in mail.text_body or mail.kind == "game_over":
            assert "Now it is" not in mail.text_body, mail.kind
            assert "turn now" not in mail.text_body.split("\n", 1)[0], mail.kind
    result = game.state["result"]
    names = ["Ana", "Bo", "Cy (computer, Greedy)"]
    mail = next(m for m in _mails(game.id, "game_over") if m.seat == 1)
    body = mail.text_body
    assert "Final ranking (points from colonies + territories + Alien Tech cards + " \
           "Positron Field)" in body
    for i, vp in enumerate(result["scores"]):
        line = (f"{names[i]}{' (winner)' if i in result['winners'] else ''}: {vp['total']} VP ="
                f" {vp['colonies']} + {vp['territories']} + {vp['cards']} + {vp['positron']}")
        assert line in body
    ranked = re.findall(r"^  (\d)\. (\w+)", body.split("Final ranking", 1)[1], re.M)[:3]
    assert [int(p) for p, _ in ranked] == sorted(int(p) for p, _ in ranked)
    assert "How it ended" in body
    assert "Ask the host for a rematch" in body and "/host/" not in body  # no host link
    host = next(m for m in _mails(game.id, "game_over") if m.seat == 0)
    assert "start the rematch" in host.text_body and "/rematch" in host.text_body


def test_the_host_starts_the_rematch_in_one_tap_and_everyone_is_invited(server: Flask) -> None:
    game = _finished()
    token = tokens.make_host_token(game.public_id)
    client = server.test_client()
    server.config["WTF_CSRF_ENABLED"] = False
    page = client.get(f"/host/{token}/rematch").get_data(as_text=True)
    assert "Start the rematch" in page and "3-seat test — game 2" in page
    started = client.post(f"/host/{token}/rematch")
    assert started.status_code == 303
    new = db.session.scalars(sa.select(Game).where(Game.rematch_of == game.id)).one()
    assert new.name == "3-seat test — game 2"
    old_seats = {(s.name, s.email, s.is_bot, s.level) for s in game.seats}
    assert {(s.name, s.email, s.is_bot, s.level) for s in new.seats} == old_seats
    assert (new.options, new.time_per_move_hours, new.autopilot_level, new.host_email) == (
        game.options, game.time_per_move_hours, game.autopilot_level, game.host_email)
    invited = _mails(new.id, "invitation")
    assert sorted(m.to_addr for m in invited) == ["ana@example.org", "bo@example.org"]
    assert all("started a rematch of 3-seat test" in m.text_body for m in invited)
    again = client.post(f"/host/{token}/rematch")
    assert again.status_code == 403 and "has started already" in again.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 2
    turn = client.get(f"/play/{link(game.id, 1)}").get_data(as_text=True)
    assert "The rematch has started" in turn and "Open your seat in" in turn


def test_a_player_asks_the_host_once_and_the_hosts_seat_starts_it(server: Flask) -> None:
    game = _finished()
    client = server.test_client()
    server.config["WTF_CSRF_ENABLED"] = False
    form = tokens.make_form_token(game.public_id, 1, game.version)
    asked = client.post(f"/play/{link(game.id, 1)}/rematch", data={"form_token": form})
    assert asked.status_code == 303 and "done=asked" in asked.location
    again = client.post(f"/play/{link(game.id, 1)}/rematch", data={"form_token": form})
    assert "done=asked_again" in again.location
    to_host = _mails(game.id, "rematch_asked")
    assert [(m.to_addr, m.seat) for m in to_host] == [("ana@example.org", 1)]
    assert "Bo asks for a rematch" in to_host[0].text_body
    assert "bo@example.org" not in to_host[0].text_body
    page = client.get(f"/play/{link(game.id, 1)}").get_data(as_text=True)
    assert "You asked the host for a rematch on" in page
    host_form = tokens.make_form_token(game.public_id, 0, game.version)
    started = client.post(f"/play/{link(game.id, 0)}/rematch", data={"form_token": host_form})
    assert started.status_code == 303
    new = db.session.scalars(sa.select(Game).where(Game.rematch_of == game.id)).one()
    ana = next(s for s in new.seats if s.email == "ana@example.org")
    # The link names the host's new seat. (Not compared with a link made here: a signed link
    # carries the second it was signed in, which can tick between the two.)
    assert "/play/" in started.location
    assert tokens.read_seat_link(started.location.rsplit("/play/", 1)[1]) == tokens.SeatLink(
        new.public_id, ana.index, ana.link_counter)


def test_only_a_finished_game_has_a_rematch(server: Flask) -> None:
    game = start(2)
    with pytest.raises(GameNotActive) as refused:
        rematch.start_rematch(game.id)
    assert "only a finished game has a rematch" in refused.value.message
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1


def test_pbem_rematch_starts_it_and_the_season_table_follows(server: Flask) -> None:
    first = _finished(players=2, seed=5, bot_seats=(1,))
    result = server.test_cli_runner().invoke(
        args=["pbem", "rematch", first.public_id, "--seed", "6"])
    assert result.exit_code == 0, result.output
    assert "2-seat test — game 2" in result.output and "host page:" in result.output
    second = db.session.scalars(sa.select(Game).where(Game.rematch_of == first.id)).one()
    second = finish(second.id)
    over = next(m for m in _mails(second.id, "game_over") if m.to_addr == "ana@example.org")
    assert "The season so far (2 games: wins, then points)" in over.text_body
    expected = {}
    for game in (fresh(first.id), second):
        for seat in game.seats:
            row = expected.setdefault(seat.name, [0, 0, 0])
            row[0] += 1
            row[1] += seat.index in game.state["result"]["winners"]
            row[2] += game.state["result"]["scores"][seat.index]["total"]
    for name, (played, wins, points) in expected.items():
        assert (f"{name}: {wins} win{'' if wins == 1 else 's'} in {played} games, "
                f"{points} points") in over.text_body
    page = server.test_client().get(f"/games/{second.public_id}").get_data(as_text=True)
    assert "The season so far" in page
    repeat = server.test_cli_runner().invoke(args=["pbem", "rematch", first.public_id])
    assert repeat.exit_code == 1 and "has started already" in repeat.output
