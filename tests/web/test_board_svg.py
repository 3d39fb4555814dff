"""The board picture: every docked ship shows its owner's letter and its value (ruling B21:
never colour alone), the Relic Ship is marked, and every string is escaped."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pbem import engine
from pbem.engine import GameState, bots
from pbem.web.presenters import board_svg as board_svg_module
from pbem.web.presenters.board_svg import board_svg
from pbem.web.presenters.turn import menu

SVG = "{http://www.w3.org/2000/svg}"


def midgame(players: int = 4, seed: int = 7, steps: int = 60) -> GameState:
    state = engine.new_game(players, seed, {})
    rng = [1, 0]
    for _ in range(steps):
        seat = engine.awaited(state)
        assert seat is not None
        state, _ = engine.apply(state, bots.greedy_bot(state, seat, rng))
    return state


def ship_labels(svg: str) -> list[tuple[str, list[str]]]:
    """(aria-label, texts drawn) of every ship group in the picture."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "ship":
            out.append((g.get("aria-label", ""), [t.text or "" for t in g.iter(f"{SVG}text")]))
    return out


def test_each_docked_ship_shows_its_letter_and_value() -> None:
    view = engine.view(midgame(), None)
    svg = str(board_svg(view, ["Ana", "Bo", "Cy", "Di"]))
    drawn = ship_labels(svg)
    docked = [s for s in view["ships"] if s["loc"] not in ("stock", "unplaced")]
    assert any(s["value"] for s in docked), "the sample game should have docked ships"
    for ship in docked:
        owner = ship["owner"]
        letter = view["seats"][owner]["letter"] if owner is not None else "–"
        wanted = [str(ship["value"])] if ship["value"] else []
        wanted.append(f"{letter}★" if ship["relic"] else letter)
        assert any(all(w in texts for w in wanted) for _, texts in drawn), ship


def test_the_relic_ship_is_marked() -> None:
    view = engine.view(engine.new_game(2, 1, {}), None)
    svg = str(board_svg(view))
    assert any(label.startswith("Relic Ship") for label, _ in ship_labels(svg))
    assert "the Relic Ship waits here" in svg


def test_names_are_escaped_and_the_picture_is_labelled() -> None:
    view = engine.view(midgame(players=2, steps=10), None)
    svg = str(board_svg(view, ['<script>alert("x")</script>', "B&B"]))
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg and "B&amp;B" in svg
    root = ET.fromstring(svg)  # well-formed XML
    assert root.get("role") == "img" and root.find(f"{SVG}title") is not None
    assert all(g.get("aria-label") for g in root.iter(f"{SVG}g"))


def test_territories_show_colony_counts_controllers_and_fields() -> None:
    view: dict[str, Any] = engine.view(midgame(), None)
    view["colonies"]["lem_badlands"] = [2, 1, 0, 0]
    view["controllers"]["lem_badlands"] = 0
    view["fields"]["repulsor_field"] = "lem_badlands"
    svg = str(board_svg(view, ["Ana", "Bo", "Cy", "Di"]))
    lem = re.search(r'<g class="territory" id="board-lem_badlands"[^>]*>', svg)
    assert lem is not None
    label = lem.group(0)
    assert "Ana (red, R): 2 colonies" in label and "Bo (green, G): 1 colony" in label
    assert "controlled by Ana" in label and "Repulsor Field" in label


def test_the_menu_groups_every_legal_action_once() -> None:
    state = midgame(steps=5)
    seat = engine.awaited(state)
    view = engine.view(state, seat)
    groups = menu(view, ["Ana", "Bo", "Cy", "Di"])
    offered = [c.notation for g in groups for c in g.choices]
    legal = [engine.format_action(a) for a in engine.legal_actions(state, seat)]
    assert sorted(offered) == sorted(legal)
    keys = [g.key for g in groups]
    assert keys == sorted(set(keys), key=keys.index)  # no group twice


def test_the_board_modules_import_each_other_without_a_cycle() -> None:
    """Issue 11: every import counts, inside functions and under TYPE_CHECKING too."""
    folder = Path(board_svg_module.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in folder.glob("board_*.py"):
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        graph[f"pbem.web.presenters.{path.stem}"] = imported
    assert "pbem.web.presenters.board_svg" in graph and len(graph) > 2

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()) & graph.keys():
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert not [m for m in graph if reaches(m, m, set())]
