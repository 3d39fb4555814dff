"""Every kind of event, field by field: what `apply` reports, for the log, mail and pages.

An event is a plain dict (`events.event(kind, seat, **data)`) so it stores as JSON in the log
and reads back unchanged; each kind's TypedDict below names its fields and their types, and
`mismatches` checks an event against its kind. tests/engine/test_event_kinds.py plays mixed
games at 2-5 seats and holds every event of every step to these shapes, so a reader of the log
(pbem.words.describe, the Agenda conditions, the mail) can rely on them. Ids (facilities,
territories, fields, cards, factions) are their canonical strings (ids.toml).
"""


import types
from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints

from .state import Json


class AgendasReshuffled(TypedDict):
    kind: Literal["agendas_reshuffled"]
    cards: int
    barrier: bool


class BorrowedBonus(TypedDict):
    kind: Literal["borrowed_bonus"]
    seat: int
    territory: str
    card: NotRequired[str]
    why: NotRequired[str]


class BorrowedShip(TypedDict):
    kind: Literal["borrowed_ship"]
    seat: int
    card: str
    ship: str
    owner: int | None
    value: int
    barrier: bool


class BoughtRelic(TypedDict):
    kind: Literal["bought_relic"]
    seat: int


class BuiltShip(TypedDict):
    kind: Literal["built_ship"]
    seat: int
    ship: str
    nth: int


class Bumped(TypedDict):
    kind: Literal["bumped"]
    seat: int
    facility: str
    ships: list[str]
    owners: list[int]


class CardToken(TypedDict):
    kind: Literal["card_token"]
    seat: int
    card: str
    tokens: int


class ChoseFaction(TypedDict):
    kind: Literal["chose_faction"]
    seat: int
    faction: str


class Claimed(TypedDict):
    kind: Literal["claimed"]
    seat: int
    card: str
    dealt: list[str]
    barrier: bool


class Cleared(TypedDict):
    kind: Literal["cleared"]
    seat: int
    card: str
    facility: str
    ships: list[str]
    to: NotRequired[str]


class ColoniesSwapped(TypedDict):
    kind: Literal["colonies_swapped"]
    seat: int
    card: str
    owner: int
    territory: str
    other: int
    other_territory: str


class ColonyMoved(TypedDict):
    kind: Literal["colony_moved"]
    seat: int
    card: NotRequired[str]
    owner: int
    came_from: NotRequired[str]
    to: NotRequired[str]
    source: NotRequired[str]
    target: NotRequired[str]
    why: NotRequired[str]


class Cycled(TypedDict):
    kind: Literal["cycled"]
    seat: int
    discarded: list[str]
    dealt: list[str]
    barrier: bool


class DiscardedAgenda(TypedDict):
    kind: Literal["discarded_agenda"]
    seat: int


class DiscardedCard(TypedDict):
    kind: Literal["discarded_card"]
    seat: int
    card: str
    forced: NotRequired[bool]
    why: NotRequired[str]


class Docked(TypedDict):
    kind: Literal["docked"]
    seat: int
    facility: str
    values: list[int]
    relic: int | None
    via: NotRequired[str]


class DraftEnded(TypedDict):
    kind: Literal["draft_ended"]
    left_out: list[str]


class Drew(TypedDict):
    kind: Literal["drew"]
    seat: int
    card: str
    why: str
    barrier: bool


class DrewAgendas(TypedDict):
    kind: Literal["drew_agendas"]
    seat: int
    count: int
    barrier: bool


class DuplicateDiscarded(TypedDict):
    kind: Literal["duplicate_discarded"]
    seat: int
    card: str
    how: str


class FieldMoved(TypedDict):
    kind: Literal["field_moved"]
    seat: int
    field: str
    territory: str
    came_from: str
    why: str


class FieldPlaced(TypedDict):
    kind: Literal["field_placed"]
    seat: int
    field: str
    territory: str
    came_from: None
    why: str


class FieldRemoved(TypedDict):
    kind: Literal["field_removed"]
    seat: int
    field: str
    came_from: str
    why: str


class Gained(TypedDict):
    kind: Literal["gained"]
    seat: int
    fuel: int
    ore: int
    why: str
    bonus: NotRequired[str]  # the territory whose bonus is part of the gain
    bonus_amount: NotRequired[int]  # how much of the gain that bonus is


class GainedControl(TypedDict):
    kind: Literal["gained_control"]
    seat: int
    territory: str
    previous: int | None


class GameOver(TypedDict):
    kind: Literal["game_over"]
    seat: int
    result: Json


class HubAdvanced(TypedDict):
    kind: Literal["hub_advanced"]
    seat: int
    start: int
    to: int
    lost: NotRequired[int]


class HubStarted(TypedDict):
    kind: Literal["hub_started"]
    seat: int
    to: NotRequired[int]


class KeptAgendas(TypedDict):
    kind: Literal["kept_agendas"]
    seat: int
    count: int


class Landed(TypedDict):
    kind: Literal["landed"]
    seat: int
    territory: str
    why: str


class Launched(TypedDict):
    kind: Literal["launched"]
    seat: int


class LostControl(TypedDict):
    kind: Literal["lost_control"]
    seat: int
    territory: str


class MustDiscardAgendas(TypedDict):
    kind: Literal["must_discard_agendas"]
    seat: int
    count: int
    why: str


class Paid(TypedDict):
    kind: Literal["paid"]
    seat: int
    fuel: int
    ore: int
    to: int | None
    why: str


class RaidEnded(TypedDict):
    kind: Literal["raid_ended"]
    seat: int


class RelicReturned(TypedDict):
    kind: Literal["relic_returned"]
    seat: int
    came_from: str


class Replaced(TypedDict):
    kind: Literal["replaced"]
    seat: int
    card: str
    facility: str
    ships: list[str]
    by: list[str]


class Rerolled(TypedDict):
    kind: Literal["rerolled"]
    seat: int
    card: NotRequired[str]
    was: int | list[int]
    now: int | list[int]
    ships: NotRequired[list[str]]
    barrier: bool
    ship: NotRequired[str]
    why: NotRequired[str]


class Rescued(TypedDict):
    kind: Literal["rescued"]
    seat: int
    ship: str
    value: int


class Reshuffled(TypedDict):
    kind: Literal["reshuffled"]
    cards: int
    barrier: bool


class ResourceCache(TypedDict):
    kind: Literal["resource_cache"]
    seat: int
    odd: int
    even: int
    fuel: int
    ore: int


class ReturnedResources(TypedDict):
    kind: Literal["returned_resources"]
    seat: int
    fuel: int
    ore: int
    why: NotRequired[str]


class RevealedAgenda(TypedDict):
    kind: Literal["revealed_agenda"]
    seat: int
    agenda: str
    half: str
    auto: bool


class Rolled(TypedDict):
    kind: Literal["rolled"]
    seat: int
    values: list[int]
    relic: int | None
    barrier: bool


class RolledShip(TypedDict):
    kind: Literal["rolled_ship"]
    seat: int
    ship: str
    value: int
    why: str
    barrier: bool


class ShipChanged(TypedDict):
    kind: Literal["ship_changed"]
    seat: int
    card: str
    ship: str
    was: int
    now: int


class Shot(TypedDict):
    kind: Literal["shot"]
    seat: int
    card: str
    facility: str
    ships: list[str]
    to: NotRequired[str]


class Stole(TypedDict):
    kind: Literal["stole"]
    seat: int
    victim: int
    resource: str


class StoleCard(TypedDict):
    kind: Literal["stole_card"]
    seat: int
    victim: int
    card: str


class SwappedColonies(TypedDict):
    kind: Literal["swapped_colonies"]
    seat: int
    card: str
    first: str
    second: str


class Teleported(TypedDict):
    kind: Literal["teleported"]
    seat: int
    ship: str
    came_from: str


class TookFromDiscard(TypedDict):
    kind: Literal["took_from_discard"]
    seat: int
    card: str


class Traded(TypedDict):
    kind: Literal["traded"]
    seat: int
    fuel: int
    ore: int


class TurnEnded(TypedDict):
    kind: Literal["turn_ended"]
    seat: int
    to_bay: int


class TurnStarted(TypedDict):
    kind: Literal["turn_started"]
    seat: int
    round: int


class UsedCard(TypedDict):
    kind: Literal["used_card"]
    seat: int
    card: str
    fuel: NotRequired[int]
    repeats: NotRequired[str]

EVENT_TYPES: dict[str, type] = {
    "agendas_reshuffled": AgendasReshuffled,
    "borrowed_bonus": BorrowedBonus,
    "borrowed_ship": BorrowedShip,
    "bought_relic": BoughtRelic,
    "built_ship": BuiltShip,
    "bumped": Bumped,
    "card_token": CardToken,
    "chose_faction": ChoseFaction,
    "claimed": Claimed,
    "cleared": Cleared,
    "colonies_swapped": ColoniesSwapped,
    "colony_moved": ColonyMoved,
    "cycled": Cycled,
    "discarded_agenda": DiscardedAgenda,
    "discarded_card": DiscardedCard,
    "docked": Docked,
    "draft_ended": DraftEnded,
    "drew": Drew,
    "drew_agendas": DrewAgendas,
    "duplicate_discarded": DuplicateDiscarded,
    "field_moved": FieldMoved,
    "field_placed": FieldPlaced,
    "field_removed": FieldRemoved,
    "gained": Gained,
    "gained_control": GainedControl,
    "game_over": GameOver,
    "hub_advanced": HubAdvanced,
    "hub_started": HubStarted,
    "kept_agendas": KeptAgendas,
    "landed": Landed,
    "launched": Launched,
    "lost_control": LostControl,
    "must_discard_agendas": MustDiscardAgendas,
    "paid": Paid,
    "raid_ended": RaidEnded,
    "relic_returned": RelicReturned,
    "replaced": Replaced,
    "rerolled": Rerolled,
    "rescued": Rescued,
    "reshuffled": Reshuffled,
    "resource_cache": ResourceCache,
    "returned_resources": ReturnedResources,
    "revealed_agenda": RevealedAgenda,
    "rolled": Rolled,
    "rolled_ship": RolledShip,
    "ship_changed": ShipChanged,
    "shot": Shot,
    "stole": Stole,
    "stole_card": StoleCard,
    "swapped_colonies": SwappedColonies,
    "teleported": Teleported,
    "took_from_discard": TookFromDiscard,
    "traded": Traded,
    "turn_ended": TurnEnded,
    "turn_started": TurnStarted,
    "used_card": UsedCard,
}


def mismatches(ev: Json) -> list[str]:
    """What is wrong with `ev` for its kind: an unknown kind, a missing or unknown field, or a
    value of the wrong type; [] when it conforms."""
    kind = ev.get("kind")
    shape = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        return [f"unknown event kind {kind!r}"]
    hints = get_type_hints(shape)
    required = getattr(shape, "__required_keys__", ())
    problems = [f"{kind}: no field {name!r}" for name in sorted(required) if name not in ev]
    for name, value in ev.items():
        if name not in hints:
            problems.append(f"{kind}: unknown field {name!r}")
        elif name != "kind" and not _fits(value, hints[name]):
            problems.append(f"{kind}.{name}: {value!r} is not {hints[name]}")
    return problems


def _fits(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if origin is NotRequired:
        return _fits(value, get_args(hint)[0])
    if origin in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in get_args(hint))
    if hint is None or hint is type(None):
        return value is None
    if hint is Any:
        return True
    if origin is list:
        (item,) = get_args(hint)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if origin is dict:
        return isinstance(value, dict)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)
