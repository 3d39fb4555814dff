"""What the turn page shows, computed from a view and the engine's previews (pure; no Flask,
no database).

`menu(view, names, previews=…)` groups the seat's legal actions (the view's `legal` list, which
is the engine's `legal_actions`) into what the page offers: docking choices per facility with
their cost and effect, trades, the Artifact, landing, raid steps, the Relic Ship, cards and the
end of the turn. The effects are the engine's `preview` of each action and the words are
`pbem.words.action_labels`'s; nothing here decides legality or computes a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine import (
    Action,
    GameState,
    Preview,
    action_from_json,
    action_to_json,
    awaited,
    format_action,
    preview,
)
from pbem.engine.menu.picks import json_family
from pbem.engine.reasons import unavailable
from pbem.words import action_labels as words

FACILITY_ORDER = (
    "solar_converter", "lunar_mine", "orbital_market", "shipyard", "alien_artifact",
    "colonist_hub", "colony_constructor", "terraforming_station", "raiders_outpost",
    "maintenance_bay",
)


@dataclass
class Choice:
    """One legal action as the page offers it: its notation is what the form posts."""

    notation: str
    label: str
    detail: str = ""
    values: list[int] = field(default_factory=list)
    relic: int | None = None
    highlight: bool = False


@dataclass
class PickItem:
    """One checkbox of a pick: its notation words are what the form posts."""

    words: str
    label: str


@dataclass
class PickEntry:
    """A parametrised entry (the view's `picks`): tick `least`..`most` boxes and submit; the
    form posts `head`, the ticked items' words and `tail`, which `check` then judges."""

    title: str
    head: str
    tail: str
    least: int
    most: int
    items: list[PickItem] = field(default_factory=list)


@dataclass
class Group:
    key: str
    title: str
    hint: str = ""
    choices: list[Choice] = field(default_factory=list)
    lit: bool = False
    reason: str = ""  # a closed facility: why none of the seat's ships may dock there
    picks: list[PickEntry] = field(default_factory=list)  # parametrised moves: choose any subset

    @property
    def summary(self) -> str:
        """The ships of each choice, e.g. "3 · 3 3 · 3 3 5" (for a closed dock group)."""
        labels = list(dict.fromkeys(c.label for c in self.choices))
        return " · ".join(labels[:6]) + (" …" if len(labels) > 6 else "")


GROUP_ORDER = ("draft", "raid", "land", "dock", "faction", "trade", "agendas", "artifact",
               "launch", "relic", "card", "other", "end")


def menu(view: Mapping[str, Any], names: Sequence[str], picked: Sequence[int] = (),
         picked_relic: bool = False, move: str | None = None,
         effects: Mapping[str, Preview] | None = None) -> list[Group]:
    """The seat's legal actions, grouped for the page, dock groups in facility order.

    `picked` are ship values the player has tapped: docking choices of exactly those ships
    light up. `move` (a canonical notation) is highlighted. `effects`: the engine's previews
    by notation (`previews`), which give each docking its cost and effect.
    """
    groups: dict[str, Group] = {}
    picked_families = {json_family(p) for p in view.get("picks", [])}
    for act in view.get("legal", []):
        if json_family(act) in picked_families:
            continue  # one choice of a pick, offered by its checkboxes below
        notation = format_action(action_from_json(act))
        key, label, detail = words.label(view, names, act, notation,
                                         (effects or {}).get(notation))
        if key not in groups:
            groups[key] = _group(view, key)
        choice = Choice(notation, label, detail, list(act.get("values", [])), act.get("relic"),
                        highlight=notation == move)
        if picked and act["kind"] == "dock" and _matches(act, picked, picked_relic):
            choice.highlight = True
            groups[key].lit = True
        groups[key].choices.append(choice)
    for pick in view.get("picks", []):
        key = f"card:{pick['kind'].removeprefix('use_')}"
        if key not in groups:
            groups[key] = _group(view, key)
        groups[key].picks.append(pick_entry(names, pick))
    return sorted(groups.values(), key=_group_rank)


def pick_entry(names: Sequence[str], pick: Mapping[str, Any]) -> PickEntry:
    return PickEntry(words.pick_title(names, pick), pick["head"], pick["tail"], pick["least"],
                     pick["most"], [PickItem(item["words"], words.pick_item(names, pick, item))
                                    for item in pick["items"]])


def _matches(act: Mapping[str, Any], picked: Sequence[int], picked_relic: bool) -> bool:
    if sorted(act["values"]) != sorted(picked):
        return False
    return (act.get("relic") is not None) == picked_relic


def _group(view: Mapping[str, Any], key: str) -> Group:
    if key.startswith("dock:"):
        fid = key[5:]
        return Group(key, words.facility_title(fid), words.facility_rule(fid))
    if key.startswith("card:"):
        return Group(key, *words.card_group(view, key[5:]))
    return Group(key, words.GROUP_TITLES.get(key, key.title()))


def _group_rank(group: Group) -> tuple[int, int]:
    if group.key.startswith("dock:"):
        fid = group.key[5:]
        pos = FACILITY_ORDER.index(fid) if fid in FACILITY_ORDER else len(FACILITY_ORDER)
        return GROUP_ORDER.index("dock"), pos
    head_key = group.key.split(":")[0]
    head = GROUP_ORDER.index(head_key) if head_key in GROUP_ORDER else len(GROUP_ORDER)
    return head, 0


def linked_choice(state: GameState, view: Mapping[str, Any], names: Sequence[str],
                  action: Action) -> Choice:
    """A legal move from a mail link that the menu offers only through a pick's checkboxes
    (a Plasma Cannon subset, a Temporal Warper re-roll): its own choice, worded as the menu
    words every move, with the engine's preview of it, so the link still opens a confirm
    form for exactly that move."""
    notation = format_action(action)
    _, label, detail = words.label(view, names, action_to_json(action), notation,
                                   preview(state, action))
    return Choice(notation, label, detail, highlight=True)


def not_now(status: str, autopilot: bool, state: GameState, names: Sequence[str]) -> str:
    """Why a move from a mail link cannot be played by this seat now."""
    if status == "finished" or state.phase == "over":
        return "The game is over."
    if status == "cancelled":
        return "The host cancelled this game."
    if status == "paused":
        return "The host paused the game; moves wait until it resumes."
    if autopilot:
        return "The autopilot plays this seat now."
    seat = awaited(state)
    return f"It is {names[seat]}’s turn now, not yours." if seat is not None else \
        "It is not your turn now."


def closed(state: GameState, seat: int, groups: Sequence[Group]) -> list[Group]:
    """The facilities the seat cannot dock at now, each with the engine's reason (greyed on
    the page, so a missing facility is never a mystery), in facility order."""
    offered = {g.key for g in groups}
    out = [Group(f"dock:{fid}", words.facility_title(fid), words.facility_rule(fid),
                 reason=_without_name(words.facility_title(fid), why))
           for fid, why in unavailable(state, seat).items() if f"dock:{fid}" not in offered]
    return sorted(out, key=_group_rank)


def _without_name(title: str, sentence: str) -> str:
    """The engine's "Shipyard: it costs …" under the heading "Shipyard" reads "It costs …"."""
    rest = sentence.removeprefix(f"{title}: ")
    return rest[:1].upper() + rest[1:]


def territory_legend(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, str]]:
    """Each territory under the board: its bonus for its controller, and who controls it (so
    "took 4 fuel" after docking at the Solar Converter is explained where the board is)."""
    rows = []
    for tid, who in (view.get("controllers") or {}).items():
        rows.append({"name": words.territory_name(tid), "bonus": words.territory_bonus(tid),
                     "controller": names[who] if isinstance(who, int) and who < len(names)
                     else ""})
    return rows


def my_dice(view: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's unplaced ships (the Relic Ship too when it commands it), by value."""
    ships = [s for s in view["ships"] if s["loc"] == "unplaced" and s["owner"] == seat]
    return sorted(ships, key=lambda s: (s["value"] or 0, bool(s.get("relic"))))


def parse_pick(raw: str | None, dice: Sequence[dict[str, Any]]) -> list[int]:
    """Indices into `dice` from a `pick=0,2` query value; anything unreadable is dropped."""
    if not raw:
        return []
    out: list[int] = []
    for word in raw.split(","):
        if word.isdigit() and int(word) < len(dice) and int(word) not in out:
            out.append(int(word))
    return sorted(out)


def toggle(picked: Sequence[int], index: int) -> str:
    chosen = set(picked) ^ {index}
    return ",".join(str(i) for i in sorted(chosen))
