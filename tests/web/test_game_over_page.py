"""Issue 14, "Game over": the finished game's page gives the ranking, where each point came
from, the tie-break used, everyone's revealed Agendas and the replay; the host page has the
rematch button."""

from __future__ import annotations

import re

from flask import Flask

from pbem import tokens
from pbem.engine import GameState
from pbem.words.glossary import agenda
from pbem.words.result import standings, tiebreak_words
from tests.conftest import MakeApp
from tests.mail.conftest import new_game
from tests.mail.test_factions_mail import mail_app, play_step

PLAYERS = [("Ana", "ana@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org")]
NAMES = ["Ana", "Ben", "Cy"]


def test_the_finished_game_page_ranks_and_explains_every_point(
    app: Flask, make_app: MakeApp
) -> None:
    web = mail_app(make_app)
    with web.app_context():
        game = new_game(PLAYERS, options={}, seed=5)
        while game.status == "active":
            play_step(game)
        result = GameState.from_json(game.state).result
        assert result is not None
        public_id, token = game.public_id, tokens.make_host_token(game.public_id)
    client = web.test_client()
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert "Final ranking" in page
    ranked = re.findall(r'<li value="(\d+)"><b>(\w+)</b>', page)
    flat = re.sub(r"\s+", " ", page)
    totals = {NAMES[i]: s["total"] for i, s in enumerate(result["scores"])}
    names_in_order = [name for _, name in ranked]
    assert sorted(names_in_order) == sorted(NAMES)
    assert NAMES[result["winners"][0]] == names_in_order[0]
    assert [totals[n] for n in names_in_order[len(result["winners"]):]] == sorted(
        [totals[n] for n in names_in_order[len(result["winners"]):]], reverse=True)
    for i in range(len(NAMES)):
        vp = result["scores"][i]
        assert (f"{vp['total']} VP</b> <span class=\"vp-parts\">= "
                f"{counted(vp['colonies'], 'colony', 'colonies')} + "
                f"{counted(vp['territories'], 'territory', 'territories')} + "
                f"{counted(vp['cards'], 'Alien Tech card', 'Alien Tech cards')} "
                f"+ {vp['positron']} Positron Field + "
                f"{counted(vp['agendas'], 'Agenda', 'Agendas')}") in flat
        for aid in result["agendas"][i]:
            assert agenda(aid).name in page
    assert f"/games/{public_id}/replay" in page
    assert "rematch" in page and "rematch=" not in page  # the public page shows no host link
    host = client.get(f"/host/{token}").get_data(as_text=True)
    assert "Start the rematch" in host and "rematch=" in host


def counted(n: int, one: str, more: str) -> str:
    return f"{n} {one if n == 1 else more}"


def test_a_tie_break_is_said_with_who_tied_and_how_it_was_broken() -> None:
    view = {"options": {"factions": True}, "result": {
        "winners": [1], "tiebreak": "agendas", "shared": False,
        "scores": [{"total": 9, "colonies": 5, "territories": 2, "cards": 0, "positron": 0,
                    "agendas": 2},
                   {"total": 9, "colonies": 4, "territories": 2, "cards": 0, "positron": 0,
                    "agendas": 3},
                   {"total": 4, "colonies": 4, "territories": 0, "cards": 0, "positron": 0,
                    "agendas": 0}],
        "agendas": [["six_ore"], ["six_ore", "low_roll", "bump_yourself"], []]}}
    assert tiebreak_words(view, NAMES) == (
        "Ana and Ben tied on 9 VP; the tie was broken by most revealed Agendas.")
    rows = standings(view, NAMES)
    assert [(r["place"], r["name"]) for r in rows] == [(1, "Ben"), (2, "Ana"), (3, "Cy")]
    assert rows[0]["agendas"] == [agenda(a).name for a in ("six_ore", "low_roll",
                                                          "bump_yourself")]
    assert ("Agendas", 3) in rows[0]["parts"]
