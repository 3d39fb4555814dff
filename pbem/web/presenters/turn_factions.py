"""The Factions part of the turn page, computed from a view alone (pure; no Flask).

`decision` says what the awaited seat has to decide and who waits on it; `private` is the
seat's own panel (faction, face-down Agendas); `public_seats` every seat's public side;
`offers` the draft's choices. The words are `pbem.words.action_labels_factions`'; legality stays the
engine's: every entry here comes from the view's `legal` list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine import GameView
from pbem.words.action_labels_factions import DECISIONS, and_list
from pbem.words.describe import name_of
from pbem.words.glossary import FACTIONS, FactionText, agenda


@dataclass
class Decision:
    title: str  # what the awaited seat decides
    waiting: str  # who waits, as a sentence


def decision(view: GameView, names: Sequence[str], me: int) -> Decision | None:
    """What `me` has to decide now outside an ordinary turn step, or what others decide."""
    pending = view.get("pending") or {}
    awaiting = view.get("awaiting")
    kind = pending.get("kind", "")
    if awaiting is None or (kind != "draft" and awaiting == view.get("active")):
        return None
    if awaiting != me:
        what = "to choose a faction" if kind == "draft" else "to decide"
        return Decision("", f"Waiting for {name_of(names, awaiting)} {what}.")
    others = [names[i] for i in range(len(names)) if i != me]
    if kind != "draft":
        others = [name_of(names, view.get("active"))]
    verb = "is" if len(others) == 1 else "are"
    return Decision(DECISIONS.get(kind, "A decision for you"),
                    f"{and_list(others)} {verb} waiting on you.")


def private(view: GameView) -> dict[str, Any]:
    """The seat's own panel: its faction's texts and its face-down Agendas (only its own)."""
    you = view.get("you")
    if you is None:  # a spectator has no panel of its own
        return {"faction": None, "agendas": [], "draft": []}
    faction = view["seats"][you["seat"]]["faction"]
    return {
        "faction": FACTIONS.get(faction) if faction else None,
        "agendas": [agenda(a) for a in you["agendas"]],
        "draft": [FACTIONS[f] for f in you.get("draft", []) if f in FACTIONS],
    }


def public_seats(view: GameView, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every seat's faction and revealed Agendas (public), and how many it holds face down."""
    out = []
    for i, s in enumerate(view["seats"]):
        out.append({
            "seat": s, "name": name_of(names, i), "faction": FACTIONS.get(s.get("faction") or ""),
            "revealed": [agenda(a) for a in s.get("revealed", [])],
            "hidden": int(s.get("agendas_hidden", 0)),
        })
    return out


def offers(groups: Sequence[Any]) -> list[tuple[Any, FactionText]]:
    """The draft's choices (from the legal actions) with each board's texts."""
    out = []
    for group in groups:
        if group.key == "draft":
            for choice in group.choices:
                fid = choice.notation.split()[-1]
                if fid in FACTIONS:
                    out.append((choice, FACTIONS[fid]))
    return out
