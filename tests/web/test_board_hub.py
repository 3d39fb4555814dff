"""The Colonist Hub picture matches the view (issue 14, bug 1): every colony in the view is
drawn on its own track and circle, in its owner's colour and letter, and nothing else is; no
track names a player as its owner unless that seat uses the track (with 5 players the tracks
are open to all, ruling F16, so none is named)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem import engine
from pbem.engine import bots
from pbem.web.presenters.board_shapes import COLOUR_HEX
from pbem.web.presenters.board_svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve"]


def played_view(players: int, steps: int) -> dict[str, Any]:
    state = engine.new_game(players, 11, {"factions": players == 5})
    rng = [3, 0]
    for _ in range(steps):
        seat = engine.awaited(state)
        if seat is None:
            break
        state, _ = engine.apply(state, bots.greedy_bot(state, seat, rng))
    return engine.view(state, None)


def with_colonies(view: dict[str, Any], colonies: dict[int, tuple[int, int]]) -> dict[str, Any]:
    """`view` with seat -> (track, circle) colonies on the Hub and no other colony there."""
    for i, seat in enumerate(view["seats"]):
        seat["hub_track"], seat["hub_circle"] = colonies.get(
            i, (seat["hub_track"], 0))
    return view


def drawn_tracks(svg: str) -> dict[int, ET.Element]:
    root = ET.fromstring(svg)
    return {int(g.get("data-track", "")): g for g in root.iter(f"{SVG}g")
            if g.get("class") == "hub-track"}


def assert_hub_matches(view: dict[str, Any]) -> None:
    players = len(view["seats"])
    svg = str(board_svg(view, NAMES[:players]))
    tracks = drawn_tracks(svg)
    assert sorted(tracks) == [0, 1, 2, 3]
    wanted = {(s["hub_track"], s["hub_circle"]): i for i, s in enumerate(view["seats"])
              if s["hub_circle"]}
    for track, g in tracks.items():
        circles = [c for c in g.iter(f"{SVG}g") if c.get("data-circle")]
        assert [int(c.get("data-circle", "")) for c in circles] == list(range(1, 8))
        for c in circles:
            circle = int(c.get("data-circle", ""))
            seat = wanted.get((track, circle))
            if seat is None:
                assert c.get("class") == "hub-circle" and c.get("data-seat") is None
                continue
            info = view["seats"][seat]
            assert c.get("class") == "hub-colony" and c.get("data-seat") == str(seat)
            assert [t.text for t in c.iter(f"{SVG}text")] == [info["letter"]]
            assert c.find(f"{SVG}circle").get("fill") == COLOUR_HEX[info["colour"]]  # type: ignore[union-attr]
            assert NAMES[seat] in c.get("aria-label", "")
            assert f"{NAMES[seat]} ({info['colour']}" in g.get("aria-label", "")
        label = g.get("aria-label", "")
        users = {i for i, s in enumerate(view["seats"]) if s["hub_track"] == track}
        colonists = {seat for (t, _), seat in wanted.items() if t == track}
        for i in range(players):
            if NAMES[i] in label:
                assert i in colonists or (players < 5 and i in users), (track, label)
    drawn = {(int(t), int(c.get("data-circle", ""))): int(c.get("data-seat", ""))
             for t, g in tracks.items() for c in g.iter(f"{SVG}g")
             if c.get("class") == "hub-colony"}
    assert drawn == wanted


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_hub_colony_of_a_played_game_is_drawn_where_the_view_has_it(players: int) -> None:
    for steps in (40, 120, 240):
        assert_hub_matches(played_view(players, steps))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_colony_is_drawn_on_its_own_track(players: int) -> None:
    view = with_colonies(played_view(players, 0),
                         {i: (i, 1 + 2 * i) for i in range(players)})
    assert_hub_matches(view)


def test_five_players_share_tracks_and_every_colony_shows() -> None:
    # Green on track 0 circle 3 while red stands on track 0 circle 5 (the report's picture
    # showed only red); seat 4 starts on track 3 but has no colony, so no track names Eve.
    view = with_colonies(played_view(5, 0), {1: (0, 3), 0: (0, 5), 2: (1, 3), 3: (3, 7)})
    assert_hub_matches(view)
    svg = str(board_svg(view, NAMES))
    assert "Eve" not in "".join(g.get("aria-label", "") for g in drawn_tracks(svg).values())


def test_five_player_docked_ships_are_all_drawn() -> None:
    view = played_view(5, 0)
    bay = [s for s in view["ships"] if s["loc"] == "maintenance_bay"]
    for n, ship in enumerate(bay[:9]):  # three each for three seats, all slot 0 (ruling F16)
        ship.update(loc="colonist_hub", slot=0, value=1 + n % 6)
    docked = {s["id"] for s in view["ships"] if s["loc"] == "colonist_hub"}
    root = ET.fromstring(str(board_svg(view, NAMES)))
    hub = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "hub")
    assert {g.get("data-ship") for g in hub.iter(f"{SVG}g") if g.get("class") == "ship"} \
        == docked
