"""Plasma Cannon (base-game.md §6.3).

Use, 1 fuel per ship: remove any number of other players' ships from one facility. They go to
the Maintenance Bay; a ship taken off the Terraforming Station goes to the stock instead (the
Relic Ship home to Burroughs Desert). Never your own ships: the Relic Ship is its owner's,
and a ship you borrowed this turn is yours until the end of your turn (ruling B20,
`lookup.commander`); on a later turn it is its owner's like any of their ships.
Discard: send one other player's docked ship to the stock (the Relic Ship home). Legal only
when that player keeps at least 3 ships of their colour; a ship on the Terraforming Station
and the Relic Ship do not count as theirs for this test (ruling B6).

Targets are written by colour and value ('red 4', 'blue 5r' for the Relic Ship). Among
equal ships of one colour at one facility the engine takes the one in the lowest port group.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from ..actions import Action, register_action
from ..board import LAYOUT
from ..errors import InvalidAction
from ..events import Event, event
from ..facilities import FACILITIES
from ..ids import COLOURS, FACILITY_NAMES, RELIC, SHIPS_MIN, Facility
from ..lookup import SERVO_SHIPS, commander, is_borrowed
from ..notation import facility_id, seat_of
from ..state import STOCK, GameState
from ..territories import send_to_bay, send_to_stock
from .common import ship_text, ship_word, with_pohl, words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "plasma_cannon"
TERRAFORMING: Final[str] = str(Facility.TERRAFORMING_STATION)


@dataclass(frozen=True, slots=True)
class UsePlasmaCannon(Action):
    """Remove ships of `owners` showing `ships` (pairwise) from `facility`; `relic_at` is the
    position of the Relic Ship among them, if it is one."""

    facility: str
    owners: tuple[int, ...]
    ships: tuple[int, ...]
    relic_at: int | None = None


register_action("use_plasma_cannon", UsePlasmaCannon)


@dataclass(frozen=True, slots=True)
class DiscardPlasmaCannon(Action):
    """Send the ship of `owner` showing `ship` at `facility` to the stock."""

    owner: int
    ship: int
    facility: str
    relic: bool = False


register_action("discard_plasma_cannon", DiscardPlasmaCannon)


def find(state: GameState, seat: int, facility: str, owner: int, value: int, relic: bool,
         taken: list[int]) -> int | str:
    """The target ship's index, or why there is none."""
    if facility not in LAYOUT:
        return f"there is no orbital facility called '{facility}' to shoot at."
    if not 0 <= owner < state.players:
        return "there is no such player in this game."
    if owner == seat:
        return "you can never target your own ships."
    here = [(s.slot, i) for i, s in enumerate(state.ships)
            if s.loc == facility and s.value == value and s.is_relic == relic and i not in taken]
    found = sorted((slot, i) for slot, i in here if commander(state, state.ships[i]) == owner)
    if not found:
        what = "Relic Ship" if relic else "ship"
        if any(state.ships[i].owner == owner and is_borrowed(state, state.ships[i])
               for _, i in here):  # ruling B20: the borrower's during the borrower's turn
            return (f"the {COLOURS[owner]} {what} showing {value} at the "
                    f"{FACILITY_NAMES[facility]} is your borrowed ship this turn; you can "
                    "never target your own ships (ruling B20).")
        return f"{COLOURS[owner]} has no {what} showing {value} at the {FACILITY_NAMES[facility]}."
    return found[0][1]


def targets(state: GameState, action: UsePlasmaCannon) -> list[int] | str:
    if len(action.owners) != len(action.ships) or not action.ships:
        return "name each target ship by colour and value."
    if action.relic_at is not None and not 0 <= action.relic_at < len(action.ships):
        return "the Relic Ship must be one of the targets."
    # One pass over the ships for all the targets (the menu asks this of every subset); on
    # a miss, `find` says why in the same words as for a single target.
    here = sorted((s.slot, i) for i, s in enumerate(state.ships) if s.loc == action.facility)
    taken: list[int] = []
    for k, (owner, value) in enumerate(zip(action.owners, action.ships, strict=True)):
        relic = k == action.relic_at
        found = None
        if action.facility in LAYOUT and 0 <= owner < state.players and owner != action.seat:
            found = next((i for _, i in here if i not in taken
                          and state.ships[i].value == value
                          and state.ships[i].is_relic == relic
                          and commander(state, state.ships[i]) == owner), None)
        if found is None:
            reason = find(state, action.seat, action.facility, owner, value, relic, taken)
            assert isinstance(reason, str)
            return reason
        taken.append(found)
    return taken


def use_fuel(state: GameState, action: UsePlasmaCannon) -> int:
    return len(action.ships)


def use_refusal(state: GameState, action: UsePlasmaCannon) -> str | None:
    found = targets(state, action)
    return found if isinstance(found, str) else None


def use(state: GameState, action: UsePlasmaCannon, events: list[Event]) -> None:
    found = targets(state, action)
    assert not isinstance(found, str)
    events.append(event("shot", action.seat, card=ID, facility=action.facility,
                        ships=[state.ships[i].id for i in found]))
    for i in found:
        if action.facility == TERRAFORMING:
            send_to_stock(state, i, events)
        else:
            send_to_bay(state, i)


def _others(state: GameState, seat: int) -> dict[str, list[tuple[int, int, bool]]]:
    """facility -> (owner, value, is the Relic Ship) of other players' ships there, in ship
    order (one pass over the ships for the whole menu), the owner each ship's `commander`."""
    out: dict[str, list[tuple[int, int, bool]]] = {}
    # `commander`, with what it reads of the state read once instead of once a ship
    borrowed = state.turn.facts.get(SERVO_SHIPS, ())
    active = state.turn.seat
    relic_owner = state.relic_owner
    for s in state.ships:
        loc = s.loc
        if loc not in FACILITIES:  # the table itself: `LAYOUT` is a view of it, by method
            continue
        ship_id = s.id
        relic = ship_id == RELIC  # `Ship.is_relic`, without the property's call
        if relic and relic_owner is None:
            continue  # no one's: `commander` is None
        owner = active if ship_id in borrowed else relic_owner if relic else s.owner
        if owner is not None and owner != seat:
            here = out.get(loc)
            if here is None:
                here = out[loc] = []
            here.append((owner, s.value, relic))
    return out


def paid_ships(state: GameState, seat: int) -> int:
    """The most ships one shot of `seat` can pay for now: a shot of n ships costs n fuel,
    Pohl Foothills taking 1 off (`with_pohl`), so it is the fuel, or one more with the
    discount."""
    fuel = state.seats[seat].fuel
    return fuel + 1 if with_pohl(state, seat, fuel + 1) <= fuel else fuel


def use_candidates(state: GameState, seat: int) -> list[Action]:
    """Every choice of other players' ships at each facility (any number of them,
    E31's two red ships off a full Shipyard), up to as many as the fuel pays for: fewer
    ships first, as `sub_multisets` orders them."""
    out: list[Action] = []
    for facility, every, most in _aims(state, seat):
        out.extend(_shots_upto(seat, facility, every, most))
    return out


def counted_candidates(state: GameState, seat: int) -> Shots:
    """`use_candidates`, counted before they are made (`Shots`)."""
    return Shots(seat, _aims(state, seat))


Target = tuple[int, int, bool]  # another player's ship: its owner, value, is the Relic Ship
Aim = tuple[str, tuple[Target, ...], int]  # a facility, its targets sorted, most ships a shot


def _aims(state: GameState, seat: int) -> list[Aim]:
    """The facilities with other players' ships, in menu order, with those ships and the
    most of them one shot pays for."""
    paid = paid_ships(state, seat)
    if not paid:
        return []  # no fuel for a single ship: the ships need not be looked at
    docked = _others(state, seat)
    aims: list[Aim] = []
    for facility in FACILITIES:
        every = docked.get(facility)
        if every:
            aims.append((facility, tuple(sorted(every)), min(len(every), paid)))
    return aims


class Shots:
    """`use_candidates(state, seat)`, counted before they are made (a `CountedActions`): its
    length is theirs, and an index makes the one shot there, equal to
    `use_candidates(state, seat)[index]`. A facility of ten other ships has a thousand
    shots, and a bot that draws one of its menu (the greedy bot at the end of a Cannon
    holder's turn) need not make them all."""

    def __init__(self, seat: int, aims: list[Aim]) -> None:
        self.seat = seat
        self.aims = aims
        self.sizes = [sum(_ways(every)[0][1:most + 1]) for _, every, most in aims]
        self.length = sum(self.sizes)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: int) -> UsePlasmaCannon:
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError("no such Plasma Cannon shot")
        for (facility, every, most), size in zip(self.aims, self.sizes, strict=True):
            if index < size:
                return _shot_at(self.seat, facility, every, most, index)
            index -= size
        raise AssertionError("the sizes add up to the length")

    def __iter__(self) -> Iterator[UsePlasmaCannon]:
        for facility, every, most in self.aims:
            yield from _shots_upto(self.seat, facility, every, most)


@lru_cache(maxsize=1024)
def _ways(every: tuple[Target, ...]) -> tuple[tuple[int, ...], ...]:
    """ways[j][n]: how many distinct choices of n ships the targets from the j-th distinct
    one on allow (equal ships are alike); `_shots` lists them."""
    have = _distinct(every)
    total = len(every)
    ways = [[0] * (total + 1) for _ in range(len(have) + 1)]
    ways[len(have)][0] = 1
    for j in range(len(have) - 1, -1, -1):
        after = ways[j + 1]
        here = ways[j]
        for n in range(total + 1):
            here[n] = sum(after[n - k] for k in range(min(have[j][1], n) + 1))
    return tuple(tuple(row) for row in ways)


def _distinct(every: tuple[Target, ...]) -> list[tuple[Target, int]]:
    """The distinct targets of a sorted `every`, in order, each with how many there are."""
    counts: list[tuple[Target, int]] = []
    for target in every:  # sorted, so equal targets are neighbours: `Counter`, in order
        if counts and counts[-1][0] == target:
            counts[-1] = (target, counts[-1][1] + 1)
        else:
            counts.append((target, 1))
    return counts


def _shot_at(seat: int, facility: str, every: tuple[Target, ...], most: int,
             index: int) -> UsePlasmaCannon:
    """`_shots_upto(seat, facility, every, most)[index]`, made alone: the size is the one
    whose shots hold the index, then each distinct target in turn is taken (once, twice...)
    or passed over by how many shots each choice leads to, in `_aim`'s order."""
    ways = _ways(every)
    size = 1
    while index >= ways[0][size]:
        index -= ways[0][size]
        size += 1
    assert size <= most, "the index is within the shots"
    have = _distinct(every)
    owners: tuple[int, ...] = ()
    ships: tuple[int, ...] = ()
    relic_at: int | None = None
    first, rest = 0, size
    while rest:
        for j in range(first, len(have)):
            (owner, value, relic), count = have[j]
            taken = 0
            for n in range(1, min(count, rest) + 1):
                leads = ways[j + 1][rest - n]  # the shots that take n of this target first
                if index < leads:
                    taken = n
                    break
                index -= leads
            if taken:
                if relic and relic_at is None:
                    relic_at = len(owners)
                owners += (owner,) * taken
                ships += (value,) * taken
                first, rest = j + 1, rest - taken
                break
    return UsePlasmaCannon(seat, facility, owners, ships, relic_at)


@lru_cache(maxsize=4096)
def _shots_upto(seat: int, facility: str, every: tuple[tuple[int, int, bool], ...],
                most: int) -> tuple[UsePlasmaCannon, ...]:
    """The shots at 1 to `most` of `every`, fewer ships first: the `_shots` of each size in
    one table, found with one look-up a facility instead of one a size."""
    return tuple(shot for size in range(1, most + 1)
                 for shot in _shots(seat, facility, every, size))


@lru_cache(maxsize=4096)
def _shots(seat: int, facility: str, every: tuple[tuple[int, int, bool], ...],
           size: int) -> tuple[UsePlasmaCannon, ...]:
    """The shots at `size` of `every` (owner, value, is the Relic Ship; sorted), in the
    order `sub_multisets` gives: a pure table, since the other players' ships at a facility
    stay put over most of a turn, and one table per size serves whatever the fuel allows."""
    counts = _distinct(every)
    # per distinct target: whether it is the Relic Ship, and n of its owner and of its value
    # for each n it may be taken (made once here, not at every choice that takes them)
    takes: list[tuple[bool, list[tuple[tuple[int, ...], tuple[int, ...]]]]] = [
        (relic, [((owner,) * n, (value,) * n) for n in range(1, have + 1)])
        for (owner, value, relic), have in counts]
    left = [0] * (len(counts) + 1)  # left[j]: how many targets counts[j:] hold
    for j in range(len(counts) - 1, -1, -1):
        left[j] = left[j + 1] + counts[j][1]
    out: list[UsePlasmaCannon] = []
    _aim(seat, facility, takes, left, 0, size, (), (), None, out)
    return tuple(out)


def _aim(seat: int, facility: str,
         takes: list[tuple[bool, list[tuple[tuple[int, ...], tuple[int, ...]]]]],
         left: list[int], first: int, size: int, owners: tuple[int, ...],
         ships: tuple[int, ...], relic_at: int | None, out: list[UsePlasmaCannon]) -> None:
    """`common._choose` for the shots (`size` > 0 more of the targets `takes[first:]`): the
    owners, values and Relic Ship's place are built along the way instead of taken apart
    from each chosen tuple, and no call is made for a choice that ends here or cannot be
    completed (a miss of `_shots` builds hundreds of shots)."""
    for j in range(first, len(takes)):
        if left[j] < size:
            break  # too few targets from here on, and fewer further on
        relic, runs = takes[j]
        at = len(owners) if relic and relic_at is None else relic_at
        after = left[j + 1]
        rest = size
        for more_owners, more_ships in runs:  # one more of this target each time
            rest -= 1
            if rest == 0:
                out.append(UsePlasmaCannon(seat, facility, owners + more_owners,
                                           ships + more_ships, at))
                break  # the shot is full: no more of this target
            if after >= rest:
                _aim(seat, facility, takes, left, j + 1, rest, owners + more_owners,
                     ships + more_ships, at, out)


def colour_count(state: GameState, owner: int) -> int:
    """Ships of `owner`'s colour in play, less any on the Terraforming Station (ruling B6).
    A ship of that colour borrowed by another player still counts: the test is about colour,
    and ownership never changes (ruling B20, docs/rulings-log.md L-T13)."""
    return sum(1 for s in state.ships
               if s.owner == owner and s.loc not in (STOCK, TERRAFORMING))


def colour_counts(state: GameState) -> list[int]:
    """`colour_count` of every seat, in one pass over the ships."""
    counts = [0] * state.players
    for s in state.ships:
        owner = s.owner
        if owner is not None and s.loc != STOCK and s.loc != TERRAFORMING:
            counts[owner] += 1
    return counts


def discard_refusal(state: GameState, action: DiscardPlasmaCannon) -> str | None:
    found = find(state, action.seat, action.facility, action.owner, action.ship,
                 action.relic, [])
    if isinstance(found, str):
        return found
    return _too_few_left(action, colour_count(state, action.owner))


def _kept(colour: int, facility: str, relic: bool) -> int:
    """The ships of its colour a target's owner keeps (ruling B6), `colour` now: the Relic
    Ship and a ship on the Terraforming Station are not counted, so losing one leaves it."""
    return colour if relic or facility == TERRAFORMING else colour - 1


def _too_few_left(action: DiscardPlasmaCannon, colour: int) -> str | None:
    """Why the target's colour, `colour` ships now (`colour_count`), may not lose it."""
    after = _kept(colour, action.facility, action.relic)
    if after < SHIPS_MIN:
        return (f"{COLOURS[action.owner]} must keep at least 3 ships of their colour, not "
                f"counting a ship on the Terraforming Station or the Relic Ship; they would "
                f"keep {after} (ruling B6).")
    return None


def discard(state: GameState, action: DiscardPlasmaCannon, events: list[Event]) -> None:
    found = find(state, action.seat, action.facility, action.owner, action.ship,
                 action.relic, [])
    assert isinstance(found, int)
    events.append(event("shot", action.seat, card=ID, facility=action.facility,
                        ships=[state.ships[found].id], to=STOCK))
    send_to_stock(state, found, events)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    """A discard at each other player's ship at each facility that its owner may lose
    (ruling B6, judged here: every discard listed is one `discard_refusal` accepts)."""
    docked = _others(state, seat)
    if not docked:
        return []
    colours = colour_counts(state)
    out: list[Action] = []
    for facility in FACILITIES:
        here = docked.get(facility)
        if here:
            spared = {(owner, value, relic) for owner, value, relic in here
                      if _kept(colours[owner], facility, relic) >= SHIPS_MIN}
            if spared:
                out.extend(_discards(seat, facility, tuple(sorted(spared))))
    return out


@lru_cache(maxsize=1024)
def _discards(seat: int, facility: str,
              targets_here: tuple[tuple[int, int, bool], ...]) -> tuple[DiscardPlasmaCannon, ...]:
    """The discards at each of `targets_here` (owner, value, is the Relic Ship): a pure
    table, like `_shots`."""
    return tuple(DiscardPlasmaCannon(seat, owner, value, facility, relic)
                 for owner, value, relic in targets_here)


def _target_words(words: list[str], players: int | None) -> tuple[list[int], list[int],
                                                                  int | None]:
    if not words or len(words) % 2:
        raise InvalidAction("Plasma Cannon: write each target as colour and value, like "
                            "'use plasma_cannon shipyard red 2 red 2'.")
    owners, values, relic_at = [], [], None
    for i in range(0, len(words), 2):
        value, is_relic = ship_word(words[i + 1])
        owners.append(seat_of(words[i], players))
        values.append(value)
        if is_relic:
            relic_at = i // 2
    return owners, values, relic_at


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    if not words:
        words_count(words, 3, ID, "use plasma_cannon lunar_mine red 4")
    owners, values, relic_at = _target_words(words[1:], players)
    return UsePlasmaCannon(seat, facility_id(words[0]), tuple(owners), tuple(values), relic_at)


def format_use(action: UsePlasmaCannon) -> list[str]:
    words = [action.facility]
    for k, (owner, value) in enumerate(zip(action.owners, action.ships, strict=False)):
        words += [COLOURS[owner] if 0 <= owner < len(COLOURS) else str(owner),
                  ship_text(value, k == action.relic_at)]
    return words


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 3, ID, "discard plasma_cannon yellow 6 lunar_mine")
    value, relic = ship_word(words[1])
    return DiscardPlasmaCannon(seat, seat_of(words[0], players), value, facility_id(words[2]),
                               relic)


def format_discard(action: DiscardPlasmaCannon) -> list[str]:
    return [COLOURS[action.owner], ship_text(action.ship, action.relic), action.facility]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Plasma Cannon",
    copies=2,
    expansion="base",
    aliases=("cannon", "plasma"),
    effect=("1 fuel per ship: send other players' ships at one facility to the Maintenance Bay. "
            "Discard: send one other player's ship to the stock."),
    use=UsePower(action=UsePlasmaCannon, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 counted=counted_candidates,
                 candidates_pass_refusal=True,  # the ships docked now
                 candidates_within_fuel=True),  # as many as the fuel pays for
    discard=DiscardPower(action=DiscardPlasmaCannon, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard,
                         candidates_pass_refusal=True),  # the ships docked now, B6 judged
)
