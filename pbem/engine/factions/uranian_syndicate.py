"""Uranian Syndicate (ruling F14).

Facility: then pay 1 ore to move one of your colonies, or 2 ore to move an opponent's, to
another territory (the follow-up decision `move <colour> <from> <to>`); the Repulsor Field
blocks both ends. Owner: once per turn, choose one contested territory (it has colonies, no
controller, no Isolation Field, and is not Burroughs Desert) and use its bonus until the end
of the turn (`contest <territory>`; it joins `Turn.borrowed`, which `has_bonus` reads, so a
bonus both controlled and borrowed applies once, ruling B23)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..actions import Action, Dock, register_action
from ..events import Event, event
from ..fields import colony_move_refusal
from ..ids import COLOURS, TERRITORY_NAMES, Faction, Field, Territory
from ..payments import pay
from ..scoring import vp
from ..state import GameState
from ..territories import add_colony, controller_of, remove_colony
from . import common
from .spec import BoardAction, BoardFacility, Decision, FactionSpec, worth

ID: Final[str] = str(Faction.URANIAN_SYNDICATE)
NAME: Final = "Uranian Syndicate"
PENDING: Final = "uranian_move"


@dataclass(frozen=True, slots=True)
class MoveColony(Action):
    """After docking at the Uranian Syndicate: move one colony of `owner` between
    territories."""

    owner: int
    source: str
    target: str


register_action("move_colony", MoveColony)


@dataclass(frozen=True, slots=True)
class Contest(Action):
    """Owner: use the bonus of the contested `territory` until the end of the turn."""

    territory: str


register_action("contest", Contest)


def move_cost(seat: int, owner: int) -> int:
    return 1 if owner == seat else 2


def _moves(state: GameState, seat: int) -> list[MoveColony]:
    out: list[MoveColony] = []
    for source, counts in state.colonies.items():
        for owner, n in enumerate(counts):
            if n:
                out.extend(MoveColony(seat, owner, source, t) for t in TERRITORY_NAMES
                           if t != source)
    return out


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    reason = common.refuse(state, seat, ID)
    if reason is None and not _can_move(state, seat):
        reason = (f"{NAME}: you could move no colony: 1 ore moves one of yours, 2 ore an "
                  "opponent's, and the Repulsor Field blocks both ends.")
    return reason


def _can_move(state: GameState, seat: int) -> bool:
    """Whether `move_refusal` accepts some move now, stopping at the first. Moves of one
    cost (one of your colonies, or an opponent's) differ only by the Repulsor Field at either
    end, and it covers one territory: two sources of each cost, two targets each, will do."""
    ore = state.seats[seat].ore
    if ore < move_cost(seat, seat):  # even one of yours is refused on cost: no need to look
        return False
    tried: tuple[list[str], list[str]] = ([], [])  # sources tried: an opponent's, yours
    for source, counts in state.colonies.items():
        for owner, n in enumerate(counts):
            sources = tried[owner == seat]
            if not n or len(sources) == 2 or source in sources \
                    or ore < move_cost(seat, owner):  # `move_refusal` refuses these on cost
                continue
            sources.append(source)
            targets = [t for t in _FIRST_THREE if t != source][:2]
            for t in targets:
                if _refusal(state, seat, owner, source, t) is None:
                    return True
    return False


_FIRST_THREE: Final = list(TERRITORY_NAMES)[:3]


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    state.turn.pending = {"kind": PENDING, "seat": seat}


def move_refusal(state: GameState, action: MoveColony) -> str | None:
    return _refusal(state, action.seat, action.owner, action.source, action.target)


def _refusal(state: GameState, seat: int, owner: int, source: str, target: str) -> str | None:
    """`move_refusal` of the move these fields make (`_can_move` asks without making it)."""
    if source not in TERRITORY_NAMES or target not in TERRITORY_NAMES:
        return f"{NAME}: name two territories."
    if not isinstance(owner, int) or not 0 <= owner < state.players:
        return f"{NAME}: there is no such player."
    if source == target:
        return f"{NAME}: the colony must move to another territory."
    if state.colonies[source][owner] == 0:
        return f"{NAME}: {COLOURS[owner]} has no colony on {TERRITORY_NAMES[source]}."
    reason = colony_move_refusal(state, source, target)
    if reason:
        return f"{NAME}: {reason}"
    cost = move_cost(seat, owner)
    if state.seats[seat].ore < cost:
        whose = "one of yours" if cost == 1 else "an opponent's colony"
        return f"{NAME}: moving {whose} costs {cost} ore; you have less."
    return None


def move(state: GameState, action: MoveColony, events: list[Event]) -> None:
    state.turn.pending = None
    pay(state, action.seat, 0, move_cost(action.seat, action.owner), events, why=ID)
    events.append(event("colony_moved", action.seat, owner=action.owner, source=action.source,
                        target=action.target, why=ID))
    remove_colony(state, action.owner, action.source, events)
    add_colony(state, action.owner, action.target, events)


def contested(state: GameState, territory: str) -> bool:
    return (sum(state.colonies[territory]) > 0 and state.controllers[territory] is None
            and state.fields.get(Field.ISOLATION) != territory
            and territory != Territory.BURROUGHS_DESERT)


def contest_refusal(state: GameState, action: Contest) -> str | None:
    if not common.owns(state, action.seat, ID):
        return f"{NAME}: only the owner of this Faction board may use a contested bonus."
    if common.once_per_turn(state, ID):
        return f"{NAME}: the owner uses one contested territory's bonus per turn; done."
    if action.territory not in TERRITORY_NAMES:
        return f"{NAME}: there is no territory called '{action.territory}'."
    if action.territory == Territory.BURROUGHS_DESERT:
        return f"{NAME}: the Burroughs Desert bonus cannot be used this way."
    if not contested(state, action.territory):
        return (f"{NAME}: {TERRITORY_NAMES[action.territory]} is not contested: it needs "
                "colonies, no controller and no Isolation Field.")
    return None


def contest(state: GameState, action: Contest, events: list[Event]) -> None:
    common.mark_used(state, ID)
    state.turn.borrowed.append(action.territory)
    events.append(event("borrowed_bonus", action.seat, territory=action.territory, why=ID))


def candidates(state: GameState, seat: int) -> list[Action]:
    pending = state.turn.pending
    if pending is not None:
        return list(_moves(state, seat)) if pending["kind"] == PENDING else []
    if not common.owns(state, seat, ID) or common.once_per_turn(state, ID):
        return []
    return [Contest(seat, t) for t in TERRITORY_NAMES if contested(state, t)]


def format_move(action: MoveColony) -> str:
    owner = COLOURS[action.owner] if 0 <= action.owner < len(COLOURS) else str(action.owner)
    return f"move {owner} {action.source} {action.target}"


def format_contest(action: Contest) -> str:
    return f"contest {action.territory}"


def bot_move_score(state: GameState, seat: int, action: MoveColony) -> float:
    """The greedy bot weighs the control won and taken from others by the move."""
    before = vp(state, seat)
    source = list(state.colonies[action.source])
    target = list(state.colonies[action.target])
    source[action.owner] -= 1
    target[action.owner] += 1
    gain = 0.0
    for territory, counts in ((action.source, source), (action.target, target)):
        was, now = state.controllers.get(territory), controller_of(counts)
        gain += 10.0 * ((now == seat) - (was == seat))
        gain += 3.0 * ((was not in (None, seat)) - (now not in (None, seat)))
    return gain - 0.01 * before - (2.0 if action.owner != seat else 1.0)


def bot_contest_score(state: GameState, seat: int, action: Contest) -> float:
    return 1.0


FACTION: Final = FactionSpec(
    id=ID,
    name=NAME,
    aliases=("uranian", "syndicate"),
    facility=BoardFacility(effect="1 ore: move one of your colonies; 2 ore: move an opponent's.",
                           refuse=refuse, dock=dock, bot_worth=worth(3.0)),
    owner="Use the bonus of one contested territory this turn.",
    actions=(
        BoardAction(action=MoveColony, refusal=move_refusal, effect=move, format=format_move,
                    bot_score=bot_move_score),
        BoardAction(action=Contest, refusal=contest_refusal, effect=contest,
                    format=format_contest, bot_score=bot_contest_score),
    ),
    decision=Decision(kind=PENDING, answers=(MoveColony,),
                      waiting="First choose the colony the Uranian Syndicate moves.",
                      unasked="Uranian Syndicate: a colony moves only after docking there."),
    candidates=candidates,
    bot_preference=8.0,
)
