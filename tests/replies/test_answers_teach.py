"""Answers teach (issue 24, point 7): a refused line's answer names a line that works there;
"what you can write" is grouped by kind and says when it is cut and how to get the rest; an
applied reply's answer says what each line did, in the page log's sentences."""

from __future__ import annotations

from typing import Any

from flask import Flask

from pbem import engine
from pbem.engine import GameState
from pbem.engine.scenarios.position import build_state
from pbem.extensions import db
from pbem.mail.outbound import reply_hints
from pbem.models import Game
from pbem.services import turns
from pbem.words import describe

from .conftest import deliver, fresh, mails_to, reply_to, start, turn_mail
from .test_attacks import _dock


def _at(game: Game, position: dict[str, Any]) -> GameState:
    """The game put in ``position`` (a scenario's), its turn mail sent."""
    state = build_state({"players": game.players, **position})
    row = db.session.get_one(Game, game.id)
    row.state = row.turn_start_state = state.to_json()
    row.turn_steps = []
    row.version += 1
    turns.announce(row, state, None)
    db.session.commit()
    return state


def _legal(game_id: int, seat: int) -> list[str]:
    state = GameState.from_json(fresh(game_id).state)
    return [engine.format_action(action) for action in engine.legal_actions(state, seat)]


def _menu_block(text: str) -> str:
    return text.split("What you can write now", 1)[1].split("\n\n", 1)[0]


def test_the_resource_limits_refusal_shows_the_discard_that_works(server: Flask) -> None:
    game = start(2)
    _at(game, {"turn": "red", "seats": {"red": {"fuel": 9, "ore": 0, "unplaced": []}}})
    assert deliver(reply_to(game, 0, "end")) == "refused"
    answer = mails_to(game.id, 0)[-1]
    assert "keep at most 8 resources: return exactly 1" in answer.text_body
    assert "A line that works here: end discard 1 fuel 0 ore" in answer.text_body
    assert "A line that works here: <code>end discard 1 fuel 0 ore</code>" in answer.html_body
    assert deliver(reply_to(game, 0, "end discard 1 fuel 0 ore", answering=answer)) == "applied"
    assert GameState.from_json(fresh(game.id).state).seats[0].fuel == 8


def test_a_refused_line_after_applied_ones_is_taught_where_it_was_read(server: Flask) -> None:
    """The working line is one of the position after the reply's earlier lines, not the
    position before the reply (nothing of which was applied)."""
    game = start(2)
    dock = _dock(game.id)
    assert deliver(reply_to(game, 0, f"{dock}\n{dock}")) == "refused"
    answer = mails_to(game.id, 0)[-1].text_body
    working = answer.split("A line that works here: ", 1)[1].splitlines()[0]
    state = GameState.from_json(fresh(game.id).state)
    state, _ = engine.apply(state, engine.parse_action(dock, 0, 2))
    assert working in [engine.format_action(a) for a in engine.legal_actions(state, 0)]
    assert working.startswith("dock")  # the kind that was written
    assert fresh(game.id).turn_steps == []


def test_a_line_with_nothing_that_works_names_none(server: Flask) -> None:
    game = start(2)
    assert deliver(reply_to(game, 1, "end")) == "refused"  # not Bo's move: nothing works
    assert "A line that works here" not in mails_to(game.id, 1)[-1].text_body


def test_a_long_menu_is_cut_by_kind_says_so_and_help_gives_every_move(
        server: Flask) -> None:
    game = start(2)
    _at(game, {"turn": "red", "seats": {"red": {"fuel": 6, "ore": 6,
                                                "unplaced": [1, 2, 3, 3, 4, 6]}}})
    legal = _legal(game.id, 0)
    assert len(legal) > reply_hints.MENU_LIMIT
    assert deliver(reply_to(game, 0, "status")) == "answered"
    answer = mails_to(game.id, 0)[-1]
    menu = _menu_block(answer.text_body)
    assert f"cut: the first of each kind, of {len(legal)} moves in all" in menu
    assert 'reply "help" for every one' in menu
    shown = [line.strip() for line in menu.splitlines() if line.startswith("    ")
             and not line.strip().startswith("…")]
    assert len(shown) == reply_hints.MENU_LIMIT and set(shown) <= set(legal)
    kinds = [line.split(" (")[0].strip() for line in menu.splitlines()[1:]
             if line.startswith("  ") and not line.startswith("    ")]
    assert kinds == list(dict.fromkeys(line.split()[0] for line in legal))  # one heading each
    assert f"… and {len(legal) - len(shown)} more" in menu or len(kinds) > 1
    assert "cut:" in answer.html_body
    assert deliver(reply_to(game, 0, "help", answering=answer)) == "answered"
    whole = _menu_block(mails_to(game.id, 0)[-1].text_body)
    assert "cut:" not in whole
    assert sorted(line.strip() for line in whole.splitlines() if line.startswith("    ")) \
        == sorted(legal)


def test_a_short_menu_is_whole_and_grouped(server: Flask) -> None:
    game = start(2)
    legal = _legal(game.id, 0)
    assert len(legal) <= reply_hints.MENU_LIMIT
    assert deliver(reply_to(game, 0, "status")) == "answered"
    menu = _menu_block(mails_to(game.id, 0)[-1].text_body)
    assert "cut:" not in menu and "more" not in menu
    assert sorted(line.strip() for line in menu.splitlines() if line.startswith("    ")) \
        == sorted(legal)


def test_grouping_deals_every_kind_its_first_lines() -> None:
    picture = {"legal": [engine.action_to_json(a) for a in engine.legal_actions(
        build_state({"players": 2, "turn": "red", "seats": {"red": {
            "fuel": 6, "ore": 6, "unplaced": [1, 2, 3, 3, 4, 6]}}}), 0)]}
    picture["legal"] += [engine.action_to_json(engine.parse_action("end", 0, 2))]
    groups = reply_hints.menu_groups(picture)
    assert [group.kind for group in groups] == ["dock", "end"]
    assert sum(len(group.lines) for group in groups) == reply_hints.MENU_LIMIT
    assert groups[1].lines == ["end"] and groups[0].more == groups[0].total - 29


def test_an_applied_replys_answer_says_what_each_line_did(server: Flask) -> None:
    game = start(2)
    dock = _dock(game.id)
    turn = turn_mail(game.id, 0)
    assert deliver(reply_to(game, 0, f"{dock}\nundo\n{dock}", answering=turn)) == "applied"
    answer = mails_to(game.id, 0)[-1]
    [step] = fresh(game.id).turn_steps
    names = [seat.name for seat in sorted(fresh(game.id).seats, key=lambda s: s.index)]
    sentences = describe.describe(step["events"], names, viewer=0)
    assert sentences and sentences[0].startswith("You ")
    block = answer.text_body.split("Applied from your reply\n", 1)[1].split("\n\n", 1)[0]
    assert block.splitlines() == [f"  {dock}", *(f"      {s}" for s in sentences),
                                  "  undo", f"      {reply_hints.UNDO_SENTENCE}",
                                  f"  {dock}", *(f"      {s}" for s in sentences)]
    assert all(sentence in answer.html_body for sentence in sentences)
