"""Chameleon Cloak (Factions, ruling T2).

Use, 2 fuel: replace opponents' ships at one facility with unplaced ships you command showing
the same values (your colour, a borrowed ship, the Relic Ship you control: ruling T2b). The
replaced ships go to the Maintenance Bay; you pay the facility's cost and gain its benefit as
if you had docked (the Lunar Mine's "at least the highest" test and the Raiders' Outpost's
bump sum do not apply; replacing the Raiders' run raids). One use may replace several ships
or whole groups, each paid for and rewarded in turn (ruling T2a, docs/rulings-log.md L-T15);
a group left partly empty is no group (L-T14). Never at the Terraforming Station; at the
Colonist Hub only with 5 players, where ports are swapped, at most 3 of your ships may be
there afterwards, and the replacement is the docking it stands for (ruling T2c): with
`launch` it launches your colony as a docking would (B8, F16: from circle 6 by one ship when
every circle 7 is taken; the advances past the launch circle start the next colony), without
it the advances past circle 7 are lost (B8). A Faction facility is an orbital facility
(ruling F5): a replacement there pays the access fee to the board's owner (unless that is
you) and any further cost, meets its need (New Gaia: your ship terraformed this turn; never
the Smuggler's Alliance, which docks only with a Raiders' run) and gains its benefit
(docs/rulings-log.md L-T9). The facility's cost is tested after the Cloak's 2 fuel.
Discard: swap all colonies of two territories, not if either holds the Repulsor Field.

Targets are written like the Plasma Cannon's, group after group, and `with 5r` puts your
Relic Ship among the replacing ships: `use chameleon_cloak alien_artifact red 5 red 6 with 6r`;
a last `launch` launches at the Colonist Hub: `use chameleon_cloak colonist_hub red 3 launch`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Final

from .. import facilities
from ..actions import Action, Dock, register_action
from ..board import LAYOUT, shape
from ..errors import InvalidAction
from ..events import Event, event
from ..facilities import SHAPE_WORDS, colonist_hub, shipyard
from ..ids import FACILITY_NAMES, FACTION_NAMES, RELIC, TERRITORY_NAMES, Facility, Field
from ..lookup import SERVO_SHIPS, commander, unplaced_indices
from ..notation import facility_id, seat_of, territory_id
from ..state import UNPLACED, GameState, territories
from ..territories import send_to_bay, update_control
from . import plasma_cannon
from .common import ship_text, ship_word, sub_multisets, with_pohl, words_count
from .plasma_cannon import UsePlasmaCannon
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "chameleon_cloak"
BASE_FACILITIES: Final = frozenset(f.value for f in Facility) - {Facility.MAINTENANCE_BAY}
# the menu's order: the base facilities as before, then the Faction facilities (ruling F5)
PLACES: Final = (*sorted(BASE_FACILITIES), *FACTION_NAMES)
_PLACE_SET: Final = frozenset(PLACES)
COST: Final = 2
SINGLES: Final = ("single", "six")
WITH: Final = "with"  # notation: 'with 5r' names the Relic Ship among your replacing ships (T2b)
LAUNCH: Final = "launch"  # notation: the last word of a replacement that launches (T2c)


@dataclass(frozen=True, slots=True)
class UseChameleonCloak(Action):
    """Replace the ships of `owners` showing `ships` (pairwise) at `facility` with yours of
    the same values; `relic_at` is the position of a Relic Ship among the targets, `relic`
    the value of the Relic Ship you control among your replacing ships (ruling T2b);
    `launch` (the Colonist Hub only) launches your colony within the replacement, as a
    docking would (rulings T2c, B8, F16)."""

    facility: str
    owners: tuple[int, ...]
    ships: tuple[int, ...]
    relic_at: int | None = None
    relic: int | None = None
    launch: bool = False


register_action("use_chameleon_cloak", UseChameleonCloak)


@dataclass(frozen=True, slots=True)
class DiscardChameleonCloak(Action):
    """Swap all colonies of `first` and `second`."""

    first: str
    second: str


register_action("discard_chameleon_cloak", DiscardChameleonCloak)


def _place_refusal(state: GameState, facility: str) -> str | None:
    if facility not in BASE_FACILITIES and facility not in FACTION_NAMES:
        return f"there is no orbital facility called '{facility}' where it works."
    if facility == Facility.TERRAFORMING_STATION:
        return "it may not be used at the Terraforming Station (ruling T2)."
    if facility == Facility.COLONIST_HUB and state.players != 5:
        return "it works at the Colonist Hub only with 5 players (ruling T2)."
    return None


Groups = list[list[int]]  # the replaced ships' indices, group by group, in written order


def _groups(state: GameState, action: UseChameleonCloak) -> Groups | str:
    """The replaced ships, cut into the groups each paid for and rewarded in turn (ruling
    T2a): at a single-port facility every ship; where the facility takes groups, the written
    ships in order, each run of them the whole of one group there (lowest group first)."""
    found = plasma_cannon.targets(state, UsePlasmaCannon(
        action.seat, action.facility, action.owners, action.ships, action.relic_at))
    if isinstance(found, str) or LAYOUT[action.facility][0] in SINGLES:
        return found if isinstance(found, str) else [[i] for i in found]
    if action.facility == Facility.COLONIST_HUB:  # ruling T2c: any ships, as one docking
        reason = _shape_refusal(state, action, found)
        return reason if reason else [found]
    wanted = [(o, v, k == action.relic_at)
              for k, (o, v) in enumerate(zip(action.owners, action.ships, strict=True))]
    slots: dict[int, list[int]] = {}
    for i, s in enumerate(state.ships):
        if s.loc == action.facility:
            slots.setdefault(s.slot, []).append(i)
    groups: Groups = []
    while sum(len(g) for g in groups) < len(wanted):
        at = sum(len(g) for g in groups)
        group = next((members for slot, members in sorted(slots.items())
                      if members not in groups and sorted(wanted[at:at + len(members)])
                      == sorted(_target(state, i) for i in members)), None)
        if group is None:
            return (f"the {FACILITY_NAMES[action.facility]} takes groups: replace whole "
                    "groups, every ship in each, one group after another (rulings T2, T2a).")
        reason = _shape_refusal(state, action, group)
        if reason:
            return reason
        groups.append(group)
    return groups


def _target(state: GameState, index: int) -> tuple[int | None, int, bool]:
    ship = state.ships[index]
    return commander(state, ship), ship.value, ship.is_relic


def _shape_refusal(state: GameState, action: UseChameleonCloak, group: list[int]) -> str | None:
    """A replaced group must be one the facility takes, as if you docked it: a group a
    Plasma Cannon or a Teleporter left partly empty is no pair, triple or run (ruling T2,
    docs/rulings-log.md L-T14)."""
    values = tuple(state.ships[i].value for i in group)
    dock = Dock(action.seat, action.facility, values)
    if facilities.shape_refusal(action.facility, values) is None \
            or shipyard.unequal_pair_allowed(state, dock):  # ruling F11
        return None
    return (f"the {FACILITY_NAMES[action.facility]} takes {SHAPE_WORDS[shape(action.facility)]}"
            f"; the group there holds {len(values)} ship(s), which could not dock "
            "together, so it cannot be replaced (ruling T2).")


def _mine(state: GameState, action: UseChameleonCloak, groups: Groups) -> Groups | str:
    """Your replacing ships, group by group, one per replaced ship and of its value: any
    unplaced ships you command — your colour, a borrowed ship, the Relic Ship you control
    (ruling T2b)."""
    values = [state.ships[i].value for group in groups for i in group]
    relic = action.relic
    if relic is not None:
        r = state.ships[-1]
        if r.loc != UNPLACED or commander(state, r) != action.seat or r.value != relic:
            return f"you have no unplaced Relic Ship showing {relic}."
        if relic not in values:
            return "your Relic Ship's value must be one of the replaced ships' values."
    free = {v: [i for i in unplaced_indices(state, action.seat) if state.ships[i].value == v]
            for v in set(values)}
    chosen: Groups = []
    for group in groups:
        chosen.append([])
        for value in (state.ships[i].value for i in group):
            if value == relic:
                chosen[-1].append(len(state.ships) - 1)
                relic = None
            elif free[value]:
                chosen[-1].append(free[value].pop(0))
            else:
                shown = " ".join(str(v) for v in action.ships)
                return f"you need unplaced ships showing {shown} to replace them with."
    return chosen


# Facilities whose cost or need a replacement meets as if docking (ruling T2); the others'
# tests are the ones a replacement skips (the Lunar Mine's order, the Raiders' bump sum).
PAID: Final = frozenset({Facility.SHIPYARD, Facility.COLONY_CONSTRUCTOR, Facility.COLONIST_HUB,
                  *FACTION_NAMES})


def _cost_refusal(state: GameState, action: UseChameleonCloak, groups: Groups,
                  mine: Groups, paid: dict[int, GameState]) -> str | None:
    """The facility's cost and needs for each group in turn (ruling T2a), judged once the
    Cloak's own fuel is paid; every group after the first on a copy where the earlier ones
    have been replaced, paid for and rewarded. One group is judged on the seat's copy in
    `paid` (made here at the first need): the judges only read it, so it serves many."""
    facility = action.facility
    if facility not in PAID:
        return None
    if facility == Facility.COLONY_CONSTRUCTOR:
        me = state.seats[action.seat]
        left = me.colonies + (1 if me.hub_circle else 0)
        if len(groups) > left:
            return (f"Colony Constructor: each group replaced lands a colony, and you have "
                    f"{left} left to land, not {len(groups)} (ruling T2a).")
    trial = paid.get(action.seat) if len(groups) == 1 else None
    if trial is None:
        trial = state.trial() if len(groups) == 1 else state.clone()
        trial.seats[action.seat].fuel -= with_pohl(state, action.seat, COST)
        if len(groups) == 1:
            paid[action.seat] = trial
    for group, ships in zip(groups, mine, strict=True):
        values = tuple(state.ships[i].value for i in group)
        relic = next((v for i, v in zip(ships, values, strict=True)
                      if state.ships[i].is_relic), None)
        if facility == Facility.COLONIST_HUB:
            reason = colonist_hub.replacement_refusal(trial, action.seat, len(values),
                                                      action.launch)
        else:
            reason = facilities.FACILITIES[facility].refuse(
                trial, action.seat, Dock(action.seat, facility, values, relic))
        if reason:
            return str(reason)
        if len(groups) > 1:
            _replace(trial, action.seat, facility, group, ships, False, [])
    return None


def use_fuel(state: GameState, action: UseChameleonCloak) -> int:
    return COST


def use_refusal(state: GameState, action: UseChameleonCloak) -> str | None:
    return _use_refusal(state, action, {})


def use_refusals(state: GameState, actions: Sequence[UseChameleonCloak]) -> list[str | None]:
    """`use_refusal` of each action, those replacing one group judged on one what-if copy
    with the fuel paid (the menu asks it of every choice at every place)."""
    paid: dict[int, GameState] = {}
    return [_use_refusal(state, action, paid) for action in actions]


def _use_refusal(state: GameState, action: UseChameleonCloak,
                 paid: dict[int, GameState]) -> str | None:
    reason = _place_refusal(state, action.facility)
    if reason:
        return reason
    if action.launch and action.facility != Facility.COLONIST_HUB:
        return "only a replacement at the Colonist Hub launches a colony (ruling T2c)."
    groups = _groups(state, action)
    if isinstance(groups, str):
        return groups
    mine = _mine(state, action, groups)
    return mine if isinstance(mine, str) else _cost_refusal(state, action, groups, mine, paid)


def use(state: GameState, action: UseChameleonCloak, events: list[Event]) -> None:
    groups = _groups(state, action)
    assert not isinstance(groups, str)
    mine = _mine(state, action, groups)
    assert not isinstance(mine, str)
    events.append(event("replaced", action.seat, card=ID, facility=action.facility,
                        ships=[state.ships[i].id for group in groups for i in group],
                        by=[state.ships[i].id for ships in mine for i in ships]))
    for group, ships in zip(groups, mine, strict=True):  # each in turn (ruling T2a)
        _replace(state, action.seat, action.facility, group, ships, action.launch, events)


def _replace(state: GameState, seat: int, facility: str, group: list[int], ships: list[int],
             launch: bool, events: list[Event]) -> None:
    """Your `ships` take the ports of the replaced `group`, which goes to the Maintenance
    Bay; you pay and gain as if those ships had docked there, launching at the Colonist Hub
    if `launch` (rulings T2, T2c)."""
    for target, ship in zip(group, ships, strict=True):
        slot = state.ships[target].slot
        send_to_bay(state, target)
        state.ships[ship].loc, state.ships[ship].slot = facility, slot
    values = tuple(state.ships[i].value for i in ships)
    relic = next((state.ships[i].value for i in ships if state.ships[i].is_relic), None)
    events.append(event("docked", seat, facility=facility, values=list(values), relic=relic,
                        via=ID))
    if facility == Facility.COLONIST_HUB:
        colonist_hub.replaced(state, seat, ships, launch, events)  # the ports swapped (T2c)
    else:
        facilities.FACILITIES[facility].dock(state, seat, ships,
                                          Dock(seat, facility, values, relic), events)


def _opponents(state: GameState, seat: int) -> dict[str, list[tuple[int, int, bool, int]]]:
    """place -> (owner, value, is the Relic Ship, slot) of opponents' ships there, sorted:
    one pass over the ships for every place, `commander`'s answer (a ship you borrowed this
    turn is yours, ruling B20) made of what it reads of the state, read once."""
    out: dict[str, list[tuple[int, int, bool, int]]] = {}
    borrowed = state.turn.facts.get(SERVO_SHIPS, ())
    active = state.turn.seat
    relic_owner = state.relic_owner
    for s in state.ships:
        loc = s.loc
        if loc not in _PLACE_SET:
            continue
        owner: int | None
        if s.id == RELIC:
            if relic_owner is None:
                continue  # no one's: `commander` is None
            owner = active if s.id in borrowed else relic_owner
        else:
            owner = active if s.id in borrowed else s.owner
        if owner is not None and owner != seat:
            here = out.get(loc)
            if here is None:
                here = out[loc] = []
            here.append((owner, s.value, s.is_relic, s.slot))
    for here in out.values():
        here.sort()
    return out


def _action(seat: int, facility: str,
            ships: list[tuple[int, int, bool, int]]) -> UseChameleonCloak:
    relic_at = next((k for k, t in enumerate(ships) if t[2]), None)
    return UseChameleonCloak(seat, facility, tuple(t[0] for t in ships),
                             tuple(t[1] for t in ships), relic_at)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    """Each opponent's ship (or group) alone, and all of them at once; each also with the
    Relic Ship you control among your replacing ships (ruling T2b); none when the fuel
    cannot pay for a use (asked first: it is the cheapest answer)."""
    if with_pohl(state, seat, COST) > state.seats[seat].fuel:
        return []
    plain = _plain_candidates(state, seat)
    r = state.ships[-1]
    if r.loc != UNPLACED or commander(state, r) != seat:
        return plain
    return [*plain, *(replace(a, relic=r.value) for a in plain
                      if isinstance(a, UseChameleonCloak) and r.value in a.ships)]


def _plain_candidates(state: GameState, seat: int) -> list[Action]:
    """Every choice the Cloak may replace: any of the opponents' ships at a facility of
    single ships and at the Colonist Hub (there each with and without a launch, ruling T2c),
    any of the whole groups elsewhere (ruling T2a), never more ships than you have unplaced
    to put in their place."""
    out: list[Action] = []
    opponents = _opponents(state, seat)
    if not opponents:
        return out  # a place without them offers no choice
    hand = len(unplaced_indices(state, seat)) + (
        1 if state.ships[-1].loc == UNPLACED and commander(state, state.ships[-1]) == seat
        else 0)
    for facility in PLACES:
        others = opponents.get(facility)
        if others and not _place_refusal(state, facility):
            out.extend(_choices(seat, facility, tuple(others), hand))
    return out


@lru_cache(maxsize=1024)
def _choices(seat: int, facility: str, others: tuple[tuple[int, int, bool, int], ...],
             hand: int) -> tuple[UseChameleonCloak, ...]:
    """`_plain_candidates` at one place of the `others` (owner, value, is the Relic Ship,
    slot; sorted) with `hand` ships to put in their place: a pure table, since the ships
    docked stay put over most of a turn."""
    out: list[UseChameleonCloak] = []
    if facility == Facility.COLONIST_HUB:  # each choice with and without a launch (T2c)
        for chosen in sub_multisets(((o, v, r, -1) for o, v, r, _ in others), hand):
            plain = _action(seat, facility, list(chosen))
            out.append(plain)
            out.append(replace(plain, launch=True))
    elif LAYOUT[facility][0] in SINGLES:
        for chosen in sub_multisets(((o, v, r, -1) for o, v, r, _ in others), hand):
            out.append(_action(seat, facility, list(chosen)))
    else:
        groups = {slot: [t for t in others if t[3] == slot]
                  for slot in sorted({t[3] for t in others})}
        for slots in sub_multisets(list(groups), len(groups)):  # lowest first (ruling T2a)
            ships = [t for slot in slots for t in groups[slot]]
            if len(ships) <= hand:
                out.append(_action(seat, facility, ships))
    return tuple(out)


def discard_refusal(state: GameState, action: DiscardChameleonCloak) -> str | None:
    pair = (action.first, action.second)
    unknown = next((t for t in pair if t not in TERRITORY_NAMES), None)
    if unknown is not None:
        return f"there is no territory called '{unknown}'."
    if action.first == action.second:
        return "choose two different territories."
    repulsor = state.fields.get(Field.REPULSOR)
    if repulsor in pair:
        return (f"the Repulsor Field on {TERRITORY_NAMES[str(repulsor)]} blocks the swap "
                "(ruling T2).")
    if not any(state.colonies[action.first]) and not any(state.colonies[action.second]):
        return "neither territory has a colony to swap."
    return None


def discard(state: GameState, action: DiscardChameleonCloak, events: list[Event]) -> None:
    cols = state.colonies
    cols[action.first], cols[action.second] = cols[action.second], cols[action.first]
    events.append(event("swapped_colonies", action.seat, card=ID, first=action.first,
                        second=action.second))
    update_control(state, action.first, events)
    update_control(state, action.second, events)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    """Each two territories holding a colony between them and neither the Repulsor Field,
    so `discard_refusal` accepts every swap listed."""
    repulsor = state.fields.get(Field.REPULSOR)
    settled = {t for t, counts in state.colonies.items() if any(counts)}
    return [swap for swap in _swaps(seat)
            if (swap.first in settled or swap.second in settled)
            and swap.first != repulsor and swap.second != repulsor]


@lru_cache(maxsize=16)
def _swaps(seat: int) -> tuple[DiscardChameleonCloak, ...]:
    """Every swap of two territories: a pure table."""
    return tuple(DiscardChameleonCloak(seat, a, b) for a, b in combinations(territories(), 2))


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    if not words:
        words_count(words, 3, ID, "use chameleon_cloak alien_artifact red 5 red 6")
    rest, relic = words[1:], None
    launch = bool(rest) and rest[-1].lower() == LAUNCH  # ruling T2c: 'launch' comes last
    if launch:
        rest = rest[:-1]
    if len(rest) >= 2 and rest[-2].lower() == WITH:  # ruling T2b: 'with 5r'
        value, is_relic = ship_word(rest[-1])
        if not is_relic:
            raise InvalidAction("Chameleon Cloak: after 'with' name your Relic Ship, like "
                                "'use chameleon_cloak alien_artifact red 5 with 5r'.")
        rest, relic = rest[:-2], value
    if not rest or len(rest) % 2:
        raise InvalidAction("Chameleon Cloak: write each ship to replace as colour and value, "
                            "like 'use chameleon_cloak alien_artifact red 5 red 6'.")
    owners, values, relic_at = [], [], None
    for k in range(0, len(rest), 2):
        value, is_relic = ship_word(rest[k + 1])
        owners.append(seat_of(rest[k], players))
        values.append(value)
        relic_at = k // 2 if is_relic else relic_at
    return UseChameleonCloak(seat, facility_id(words[0]), tuple(owners), tuple(values),
                             relic_at, relic, launch)


def format_use(action: UseChameleonCloak) -> list[str]:
    words = plasma_cannon.format_use(UsePlasmaCannon(
        action.seat, action.facility, action.owners, action.ships, action.relic_at))
    if action.relic is not None:
        words = [*words, WITH, ship_text(action.relic, True)]
    return [*words, LAUNCH] if action.launch else words


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 2, ID, "discard chameleon_cloak burroughs_desert lem_badlands")
    return DiscardChameleonCloak(seat, territory_id(words[0]), territory_id(words[1]))


def format_discard(action: DiscardChameleonCloak) -> list[str]:
    return [action.first, action.second]


def bot_use_score(state: GameState, seat: int, action: UseChameleonCloak,
                  dock_worth: Mapping[str, float]) -> float:
    """The greedy bot values the Cloak as the docking it takes over, less its cost."""
    return dock_worth.get(action.facility, 0.0) - 2.0


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Chameleon Cloak",
    copies=1,
    expansion="factions",
    aliases=("cloak",),
    effect=("2 fuel: replace opponents' ships at one facility with yours of the same values and "
            "use it. Discard: swap all colonies of two territories."),
    use=UsePower(action=UseChameleonCloak, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 bot_score=bot_use_score, refusals=use_refusals,
                 candidates_within_fuel=True),  # none unless the fuel pays for a use
    discard=DiscardPower(action=DiscardChameleonCloak, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard,
                         candidates_pass_refusal=True),  # colonies there now, Repulsor judged
)
