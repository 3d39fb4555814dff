"""One play path (issue 23, point 1): every step of a stored game is taken by
``pbem.services.play`` — the turn page's form, the confirm form a mail link opens, the JSON
API, a reply by mail, the timeouts' autopilot and computer seats — and an undo by reply is
the turn page's undo.

Two proofs: the source (no other module calls the engine's in-place apply, or writes a
game's state outside creation and restore), and each door walked through with the engine's
apply watched (every call comes from ``services/play.py``, through its public entry).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask import Flask

import pbem.engine
from pbem import engine
from pbem.extensions import db
from pbem.mail.reply_address import reply_address
from pbem.models import ActionLog, Deadline, Game
from pbem.services import play, timeouts
from tests.replies.conftest import deliver, mails_to, reply_to
from tests.server.conftest import auth, fresh, link, start
from tests.web.conftest import hidden, post_move

PBEM = Path(__file__).resolve().parent.parent / "pbem"
PLAY = PBEM / "services" / "play.py"
# The one other caller of the in-place apply: ``pbem verify`` and ``pbem import`` replay a
# game's log on a new state built from its creation record (to compare, or to restore it);
# neither takes a step of a stored game.
REPLAYS = {PBEM / "services" / "archive.py"}
# Where a game's state is written besides play.py: its creation, its restore from an export,
# and the hot path's one UPDATE, ``turns.store_step``, which only play.py calls.
STATE_WRITERS = {PBEM / "services" / "games.py", PBEM / "services" / "archive.py",
                 PBEM / "services" / "turns.py"}
MOVE = "dock 1 solar_converter"  # seat 0's first step of the base game (seed 11)
SECOND = "dock 2 lunar_mine"


def outside_the_engine() -> list[Path]:
    return sorted(p for p in PBEM.rglob("*.py") if PBEM / "engine" not in p.parents)


def names_used(tree: ast.AST) -> set[str]:
    """Every attribute, name and imported name in ``tree``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.alias):
            found.add(node.name.rsplit(".", 1)[-1])
    return found


def calls_of(tree: ast.AST, name: str) -> int:
    return sum(1 for node in ast.walk(tree) if isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Attribute) and node.func.attr == name)
        or (isinstance(node.func, ast.Name) and node.func.id == name)))


def state_writes(tree: ast.AST) -> int:
    """Assignments to ``<something>.state`` (the games row's state column)."""
    return sum(1 for node in ast.walk(tree) if isinstance(node, ast.Assign | ast.AugAssign)
               for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
               if isinstance(target, ast.Attribute) and target.attr == "state")


def test_only_the_play_path_applies_a_step_to_a_game() -> None:
    using = {path for path in outside_the_engine()
             if "apply_in_place" in names_used(ast.parse(path.read_text()))}
    assert using == {PLAY, *REPLAYS}


def test_only_the_play_path_changes_a_stored_games_state() -> None:
    writers = {path for path in outside_the_engine()
               if state_writes(ast.parse(path.read_text()))}
    assert writers <= {PLAY, *STATE_WRITERS}, writers - {PLAY, *STATE_WRITERS}
    games_py = ast.parse((PBEM / "services" / "games.py").read_text())
    assert state_writes(games_py) == 0  # it creates a game with its first state, no more


def test_the_mechanics_under_the_play_path_have_no_other_caller() -> None:
    """The hot path's lock, load and one UPDATE, and handing the turn over (log, mail),
    happen only for a step the play path took."""
    for name in ("lock_for_step", "load_locked", "store_step", "hand_over"):
        callers = {path.relative_to(PBEM).as_posix() for path in outside_the_engine()
                   if calls_of(ast.parse(path.read_text()), name)}
        assert callers == {"services/play.py"}, (name, callers)


# -- every door, walked through ---------------------------------------------------------------


@pytest.fixture
def server(app: Flask) -> Iterator[Flask]:
    app.config.update(API_RATE_LIMIT=0, INBOUND_ADDRESS="play@pbem.test")
    with app.app_context():
        yield app


class Watch:
    """The engine's in-place apply, watched: the module each call came from, and which of
    the play path's public functions were entered."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.callers: list[str] = []
        self.entered: list[str] = []
        real_apply = pbem.engine.apply_in_place

        def apply_in_place(state: engine.GameState, action: engine.Action) -> list[Any]:
            self.callers.append(sys._getframe(1).f_globals["__name__"])
            return real_apply(state, action)

        monkeypatch.setattr(pbem.engine, "apply_in_place", apply_in_place)
        for name in ("play", "undo", "step_locked", "undo_locked", "run_autopilot"):
            monkeypatch.setattr(play, name, self._entering(name, getattr(play, name)))

    def _entering(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def entered(*args: Any, **kwargs: Any) -> Any:
            self.entered.append(name)
            return real(*args, **kwargs)
        return entered


def steps_of(game_id: int) -> list[str]:
    """Every step the game has taken: the log, then the turn in progress."""
    logged = db.session.scalars(sa.select(ActionLog.notation).where(
        ActionLog.game_id == game_id).order_by(ActionLog.seq)).all()
    return [*logged, *(step["notation"] for step in fresh(game_id).turn_steps)]


def by_turn_form(server: Flask, game: Game) -> None:
    assert post_move(server.test_client(), link(game.id, 0), MOVE).status_code == 303


def by_mail_link(server: Flask, game: Game) -> None:
    client, seat_link = server.test_client(), link(game.id, 0)
    page = client.get(f"/play/{seat_link}?move={quote(MOVE)}").get_data(as_text=True)
    form = re.search(r'<section class="confirm".*?</section>', page, re.S)
    assert form is not None, "the mail link opens no confirm form"
    response = client.post(f"/play/{seat_link}/act", data={
        "csrf_token": hidden(form.group(0), "csrf_token"),
        "form_token": hidden(form.group(0), "form_token"), "action": MOVE})
    assert response.status_code == 303


def by_api(server: Flask, game: Game) -> None:
    response = server.test_client().post(
        f"/api/games/{game.public_id}/actions", headers=auth(link(game.id, 0)),
        json={"version": fresh(game.id).version, "notation": MOVE})
    assert response.status_code == 200, response.get_json()


def by_reply(server: Flask, game: Game) -> None:
    assert deliver(reply_to(game, 0, f"{MOVE}\n")) == "applied"


def by_timeout(server: Flask, game: Game) -> None:
    assert timeouts.autopilot(game.id, 0, "timeout") > 0  # the whole turn, step by step


DOORS = {"turn page form": (by_turn_form, "play"), "mail link": (by_mail_link, "play"),
         "API": (by_api, "play"), "reply by mail": (by_reply, "step_locked"),
         "timeout": (by_timeout, "play")}


@pytest.mark.parametrize("door", list(DOORS))
def test_every_door_takes_its_steps_through_the_play_path(
        server: Flask, monkeypatch: pytest.MonkeyPatch, door: str) -> None:
    game = start(2)
    before = steps_of(game.id)
    watch = Watch(monkeypatch)
    walk, entry = DOORS[door]
    walk(server, game)
    taken = steps_of(game.id)[len(before):]
    assert taken, "the door took no step"
    assert watch.callers and set(watch.callers) == {"pbem.services.play"}
    assert len(watch.callers) >= len(taken)
    assert watch.entered[0] == entry


def test_computer_seats_play_through_the_play_path(
        server: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    watch = Watch(monkeypatch)
    game = start(2, bot_seats=(0,))  # the computer opens: its turn is played at creation
    assert set(db.session.scalars(sa.select(ActionLog.by).where(
        ActionLog.game_id == game.id))) == {"bot"}
    assert set(watch.callers) == {"pbem.services.play"}
    assert len(watch.callers) == len(steps_of(game.id))
    assert watch.entered == ["run_autopilot"]


def test_undo_by_page_api_and_reply_goes_through_the_play_path(
        server: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(2)
    play.play(game.id, 0, fresh(game.id).version, engine.parse_action(MOVE, 0, 2))
    watch = Watch(monkeypatch)
    undoes: dict[str, Callable[[], None]] = {
        "page": lambda: page_undo(server, game.id),
        "API": lambda: server.test_client().post(
            f"/api/games/{game.public_id}/undo", headers=auth(link(game.id, 0)),
            json={"version": fresh(game.id).version}),
        "reply": lambda: deliver(reply_now(game, 0, "undo\n")),
    }
    for door, undo in undoes.items():
        play.play(game.id, 0, fresh(game.id).version, engine.parse_action(SECOND, 0, 2))
        del watch.entered[:]
        undo()
        assert [step["notation"] for step in fresh(game.id).turn_steps] == [MOVE], door
        assert "undo_locked" in watch.entered, door
        assert set(watch.callers) == {"pbem.services.play"}  # the turn's steps replayed


# -- an undo by reply is the turn page's undo -------------------------------------------------


def reply_now(game: Game, seat: int, body: str) -> EmailMessage:
    """A reply written for the position the game is in now: a reply answers one wait
    (``pbem.services.reply_waits``), so one to the turn mail would be late after page steps."""
    msg = reply_to(game, seat, body)
    row = fresh(game.id)
    address = reply_address(row, row.seat(seat))
    assert address is not None
    msg.replace_header("To", address)
    return msg


def page_undo(server: Flask, game_id: int) -> Any:
    """The turn page's undo, posted as a browser would (tokens read from the page)."""
    client, seat_link = server.test_client(), link(game_id, 0)
    page = client.get(f"/play/{seat_link}").get_data(as_text=True)
    return client.post(f"/play/{seat_link}/undo", data={  # one form token serves the page
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token")})


def what_undo_leaves(game_id: int) -> dict[str, Any]:
    game = fresh(game_id)
    rows = db.session.execute(sa.select(Deadline.kind, Deadline.seat, Deadline.turn_key).where(
        Deadline.game_id == game_id, Deadline.done_at.is_(None)).order_by(
        Deadline.kind, Deadline.due_at)).all()
    return {
        "state": game.state, "turn_start_state": game.turn_start_state,
        "turn_steps": game.turn_steps, "version": game.version, "status": game.status,
        "log": steps_of(game_id), "open_rows": [tuple(row) for row in rows],
        "seats": [(s.faction, s.consecutive_timeouts, s.absent) for s in game.seats],
    }


def twin_games(moves: tuple[str, ...]) -> tuple[Game, Game]:
    """Two games alike in everything but their ids, seat 0 having played ``moves``."""
    twins = start(2, seed=11), start(2, seed=11)
    for game in twins:
        for move in moves:
            play.play(game.id, 0, fresh(game.id).version, engine.parse_action(move, 0, 2))
    return twins


def test_an_undo_by_reply_leaves_the_game_as_the_pages_undo_does(server: Flask) -> None:
    by_page, by_mail = twin_games((MOVE, SECOND))
    assert page_undo(server, by_page.id).status_code == 303
    assert deliver(reply_now(by_mail, 0, "undo\n")) == "applied"
    assert what_undo_leaves(by_page.id) == what_undo_leaves(by_mail.id)
    assert [step["notation"] for step in fresh(by_mail.id).turn_steps] == [MOVE]


@pytest.mark.parametrize(("moves", "why"), [
    ((), "There is nothing of yours to undo in this turn."),
    (("dock 4 alien_artifact", "cycle"),
     "'cycle' revealed new dice or cards, so it cannot be undone."),
])
def test_an_undo_refused_by_reply_is_refused_by_the_page_in_the_same_words(
        server: Flask, moves: tuple[str, ...], why: str) -> None:
    by_page, by_mail = twin_games(moves)
    before = what_undo_leaves(by_page.id)
    response = page_undo(server, by_page.id)
    assert response.status_code == 409
    assert why.replace("'", "&#39;") in response.get_data(as_text=True)
    assert deliver(reply_now(by_mail, 0, "undo\n")) == "refused"
    assert why in mails_to(by_mail.id, 0)[-1].text_body
    assert what_undo_leaves(by_page.id) == what_undo_leaves(by_mail.id) == before
