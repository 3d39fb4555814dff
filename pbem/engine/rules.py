"""One home for legality: `refusal` says why an action is not allowed now (or None), and
`perform` carries out an allowed one on a working copy. Both read the rules and the state
alone.

`legal_actions` (the menu) offers exactly the `candidates` that `refusal` accepts. It judges
the dockings with the menu's accelerator (`pbem.engine.menu`), which only the menu uses; the
invariant tests compare the two at every step of many games."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, Final, cast

from . import alien_tech, facilities, factions
from .actions import (
    Action,
    BuyRelic,
    Claim,
    Cycle,
    Dock,
    EndRaid,
    EndTurn,
    Land,
    Launch,
    Steal,
    StealCard,
    Trade,
)
from .agendas import actions as agenda_actions
from .agendas.facts import active, after_action
from .alien_tech import multiverse_window
from .errors import GameOver, IllegalAction, InvalidAction, NotYourTurn, RulesError
from .events import Event, event
from .facilities import alien_artifact, colonist_hub, orbital_market, raiders_outpost, shipyard
from .facilities.landing import next_landing
from .flow import end_turn, game_over_check
from .ids import (
    ARTIFACT_CLAIM_TOTAL,
    RELIC_SHIP_COST,
    RESOURCE_LIMIT,
    TERRITORY_NAMES,
    Faction,
    Territory,
)
from .menu import legal_docks
from .menu.cards import legal_card_actions
from .payments import can_pay, pay
from .state import BAY, RELIC_HOME, GameState
from .territories import add_colony, has_bonus, landable

# A plain str: a dict finds it several times faster than the StrEnum member.
_BURROUGHS_DESERT: Final = str(Territory.BURROUGHS_DESERT)

Refusal = tuple[type[RulesError], str]


def awaited(state: GameState) -> int | None:
    """The seat whose decision the game waits for (ruling C5), or None when it is over."""
    if state.phase == "over":
        return None
    if state.turn.pending is not None:
        return int(state.turn.pending["seat"])
    return state.turn.seat


def refusal(state: GameState, action: Action) -> Refusal | None:
    if state.phase == "over":
        return GameOver, "The game is over."
    if not isinstance(action.seat, int) or not 0 <= action.seat < state.players:
        return InvalidAction, "There is no such seat in this game."
    if action.seat != awaited(state):
        return NotYourTurn, "It is not your turn to act."
    handler = HANDLERS.get(type(action))
    if handler is None:
        return InvalidAction, f"'{action.kind}' is not an action of this game."
    words = out_of_order(state.turn.pending, type(action))
    if words is not None:
        return IllegalAction, words
    reason = handler[0](state, action)
    return (IllegalAction, reason) if reason else None


def out_of_order(pending: dict[str, Any] | None, kind: type[Action]) -> str | None:
    """Why an action of this kind may not come now, given the pending decision (or None)."""
    if pending is not None:
        if kind in PENDING_ACTIONS[pending["kind"]]:
            return None
        return PENDING_WORDS[pending["kind"]]
    if kind in ANSWERS:  # an answer with no question: steal, end raid or land out of turn order
        for asked, answers in PENDING_ACTIONS.items():
            if kind in answers:
                return UNASKED_WORDS.get(asked, "Nothing asks for that now.")
    return None


_KEEP_CYCLE: Final = (Cycle, Claim)  # the actions that leave a cycle possible (B16)


def perform(state: GameState, action: Action, events: list[Event]) -> None:
    turn = state.turn
    if not isinstance(action, _KEEP_CYCLE):
        turn.may_cycle = 0  # ruling B16: a cycle comes right after the arrival
    HANDLERS[type(action)][1](state, action, events)
    # ruling A3: the facts Agenda conditions need (none without the Factions option). Only
    # `flow.start_turn` makes a new Turn, and `on_turn_start` has folded that turn's events
    # (those of the action's that came before belong to the turn that ended, folded at its
    # last action).
    if state.turn is turn and active(state):
        after_action(state, events)


# -- refusals and effects of the turn's own actions -----------------------------------------

def _land_refusal(state: GameState, action: Action) -> str | None:
    assert isinstance(action, Land)
    if action.territory not in TERRITORY_NAMES:
        return f"There is no territory called '{action.territory}'."
    if action.territory not in landable(state):
        return (f"The Repulsor Field on {TERRITORY_NAMES[action.territory]} lets no colony "
                "land there.")
    return None


def _land(state: GameState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, Land)
    pending = state.turn.pending
    assert pending is not None
    me = state.seats[action.seat]
    if pending["source"] == "supply":
        me.colonies -= 1
    elif pending["source"] == "hub":
        me.hub_circle = 0
    state.turn.pending = None
    # as `event` would build it, without packing keywords: every colony lands so
    events.append({"kind": "landed", "seat": action.seat, "territory": action.territory,
                   "why": pending["why"]})
    add_colony(state, action.seat, action.territory, events)
    next_landing(state, pending)  # another colony owed by the same action (ruling T2a)
    game_over_check(state, action.seat, events)


def _trade_refusal(state: GameState, action: Action) -> str | None:
    assert isinstance(action, Trade)
    return orbital_market.trade_refusal(state, action)


def _trade(state: GameState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, Trade)
    orbital_market.trade(state, action, events)


def _buy_relic_refusal(state: GameState, action: Action) -> str | None:
    if not has_bonus(state, action.seat, _BURROUGHS_DESERT):
        return ("Relic Ship: only the controller of Burroughs Desert may buy it, and not while "
                "the Isolation Field is there.")
    if state.relic().loc != RELIC_HOME:
        return "Relic Ship: it is not on Burroughs Desert now."
    if not can_pay(state, action.seat, *RELIC_SHIP_COST):
        return "Relic Ship: it costs 1 fuel and 1 ore; you cannot pay."
    return None


def _buy_relic(state: GameState, action: Action, events: list[Event]) -> None:
    pay(state, action.seat, *RELIC_SHIP_COST, events, why="relic_ship")
    relic = state.relic()
    relic.loc, relic.slot, relic.value = BAY, -1, 0
    state.relic_owner = action.seat
    events.append(event("bought_relic", action.seat))
    if state.seats[action.seat].faction == Faction.SCAVENGER_FLEET:
        shipyard.roll_at_once(state, len(state.ships) - 1, events)  # ruling F11


def _steal_card(state: GameState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, StealCard)
    raiders_outpost.steal_card(state, action, events)
    if action.card == multiverse_window.ID:  # ruling T6: its holder may have to discard
        multiverse_window.lost(state, action.victim, events)


def _end_turn_refusal(state: GameState, action: Action) -> str | None:
    assert isinstance(action, EndTurn)
    dock = facilities.dockable(state, action.seat)
    if dock is not None:
        return (f"You must dock every ship that can dock: your "
                f"{' '.join(str(v) for v in dock.values)} can still dock at the "
                f"{facilities.name(dock.facility)}.")
    return _return_refusal(state, action)


def _return_refusal(state: GameState, action: EndTurn) -> str | None:
    """The resources given back at the end of the turn (ruling B9 aside)."""
    me = state.seats[action.seat]
    rf, ro = action.return_fuel, action.return_ore
    if rf < 0 or ro < 0 or rf > me.fuel or ro > me.ore:
        return "You can only return fuel and ore that you have."
    excess = max(0, me.fuel + me.ore - RESOURCE_LIMIT)
    if rf + ro != excess:
        return (f"At the end of your turn you keep at most 8 resources: return exactly "
                f"{excess} (you have {me.fuel} fuel and {me.ore} ore).")
    return None


def _end_turn(state: GameState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, EndTurn)
    end_turn(state, action.seat, action.return_fuel, action.return_ore, events)


HANDLERS: Final[dict[type[Action], tuple[Callable[[GameState, Any], str | None],
                                         Callable[[GameState, Any, list[Event]], None]]]] = {
    Dock: (facilities.dock_refusal, facilities.do_dock),
    Land: (_land_refusal, _land),
    Trade: (_trade_refusal, _trade),
    Cycle: (alien_artifact.cycle_refusal, alien_artifact.cycle),
    Claim: (alien_artifact.claim_refusal, alien_artifact.claim),
    Launch: (colonist_hub.launch_refusal,
             lambda st, a, ev: colonist_hub.launch(st, a.seat, ev)),
    Steal: (raiders_outpost.steal_refusal, raiders_outpost.steal),
    StealCard: (raiders_outpost.steal_card_refusal, _steal_card),
    EndRaid: (lambda st, a: None, raiders_outpost.end_raid),
    BuyRelic: (_buy_relic_refusal, _buy_relic),
    EndTurn: (_end_turn_refusal, _end_turn),
    **{cls: (alien_tech.use_refusal, alien_tech.use) for cls in alien_tech.USES},
    **{cls: (alien_tech.discard_refusal, alien_tech.discard) for cls in alien_tech.DISCARDS},
    **agenda_actions.HANDLERS,
    **factions.HANDLERS,
}

PENDING_ACTIONS: Final[dict[str, tuple[type[Action], ...]]] = {
    "land": (Land,),
    "raid": (Steal, StealCard, EndRaid),
    **agenda_actions.PENDING_ACTIONS,
    **{kind: answers for kind, (answers, _, _) in factions.PENDING.items()},
}
PENDING_WORDS: Final = {
    "land": "First choose the territory where your colony lands.",
    "raid": "First finish your raid: take resources or a card, or end the raid.",
    **agenda_actions.PENDING_WORDS,
    **{kind: words for kind, (_, words, _) in factions.PENDING.items()},
}
ANSWERS: Final = frozenset(kind for answers in PENDING_ACTIONS.values() for kind in answers)
Judge = Callable[[GameState, Any], str | None]
# The menu's refusal of each kind `out_of_order` lets through: with nothing pending, every
# kind that answers no question; while a decision waits, its answers.
_UNASKED_REFUSALS: Final[dict[type[Action], Judge]] = {
    kind: refuse for kind, (refuse, _) in HANDLERS.items() if kind not in ANSWERS}
_ASKED_REFUSALS: Final[dict[str, dict[type[Action], Judge]]] = {
    pending: {kind: HANDLERS[kind][0] for kind in answers if kind in HANDLERS}
    for pending, answers in PENDING_ACTIONS.items()}
UNASKED_WORDS: Final = {
    "land": "You have no colony to land now: a facility or a launch places one.",
    "raid": "Raiders' Outpost: you are not raiding now; a raid comes with docking a run there.",
    **agenda_actions.UNASKED_WORDS,
    **{kind: unasked for kind, (_, _, unasked) in factions.PENDING.items()},
}


# -- the menu ---------------------------------------------------------------------------------

def candidates(state: GameState, seat: int, docks: bool = True) -> list[Action]:
    """Actions to try for `seat` now (`docks`: the dockings too); refusal decides."""
    pending = state.turn.pending
    if pending is not None:
        if pending["kind"] == "land":
            return list(_lands(seat))
        if pending["kind"] == "raid":
            out: list[Action] = []
            for victim in range(state.players):
                if victim == seat:
                    continue
                out.extend(_steals(seat, victim))
                out.extend(StealCard(seat, victim, c) for c in state.seats[victim].cards)
            out.append(EndRaid(seat))
            return out
        if pending["kind"] in agenda_actions.PENDING_ACTIONS:
            return agenda_actions.pending_candidates(state, seat)
        return factions.candidates(state, seat)
    out = list(facilities.candidates(state, seat)) if docks else []
    out.extend(_turn_candidates(state, seat))
    out.extend(alien_tech.candidates(state, seat))
    out.extend(_late_candidates(state, seat))
    return out


def _turn_candidates(state: GameState, seat: int) -> list[Action]:
    """After the dockings: trades, cycle, claims, launch, the Relic Ship."""
    out: list[Action] = [_trade_action(seat, r) for r in orbital_market.rates(state, seat)]
    cycle, launch, buy_relic = _fixed(seat)
    out.append(cycle)
    if state.turn.artifact_total >= ARTIFACT_CLAIM_TOTAL:  # below it every claim is refused
        out.extend(Claim(seat, c) for c in dict.fromkeys(state.display))
    out.append(launch)
    out.append(buy_relic)
    return out


def _late_candidates(state: GameState, seat: int) -> list[Action]:
    """After the cards: Agendas, Faction boards, and ending the turn."""
    out = agenda_actions.candidates(state, seat)
    out.extend(factions.candidates(state, seat))
    me = state.seats[seat]
    out.extend(_end_turns(seat, me.fuel, me.ore))
    return out


# Actions are immutable values, so the menu reuses the ones it offers every turn.

@cache
def _fixed(seat: int) -> tuple[Cycle, Launch, BuyRelic]:
    return Cycle(seat), Launch(seat), BuyRelic(seat)


@cache
def _lands(seat: int) -> tuple[Land, ...]:
    return tuple(Land(seat, t) for t in TERRITORY_NAMES)


@cache
def _steals(seat: int, victim: int) -> tuple[Steal, Steal]:
    return Steal(seat, victim, "fuel"), Steal(seat, victim, "ore")


@lru_cache(maxsize=1024)
def _trade_action(seat: int, rate: int) -> Trade:
    return Trade(seat, rate)


@lru_cache(maxsize=1024)
def _end_turns(seat: int, fuel: int, ore: int) -> tuple[EndTurn, ...]:
    """The ends of the turn to try for `seat` holding `fuel` and `ore`: each way to give back
    exactly the resources above the limit (ruling B9 aside, `_return_refusal` accepts each)."""
    excess = max(0, fuel + ore - RESOURCE_LIMIT)
    return tuple(EndTurn(seat, rf, excess - rf)
                 for rf in range(max(0, excess - ore), min(fuel, excess) + 1))


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action `seat` may take now, one per distinct choice (ships by value): the
    `candidates` that `refusal` accepts, in order.

    The checks that depend only on the position (game over, whose turn, what is pending) are
    made once here; the dockings come from the accelerator (`legal_docks`), whose answer also
    settles the must-dock rule (B9) for ending the turn; the card actions come from
    `legal_card_actions` (judged a card at a time); every other candidate passes its own
    refusal (the territories of a landing all at once)."""
    if state.phase == "over" or seat != awaited(state):
        return []
    pending = state.turn.pending
    if pending is not None:
        if pending["kind"] == "land":  # `_land_refusal` of each of `_lands`, asked at once
            allowed = landable(state)
            return [land for land in _lands(seat) if land.territory in allowed]
        return _judged(state, seat, candidates(state, seat), _ASKED_REFUSALS[pending["kind"]],
                       can_dock=False)
    menu, late = menu_beside_cards(state, seat)
    menu.extend(legal_card_actions(state, seat))
    menu.extend(late)
    return menu


def menu_beside_cards(state: GameState, seat: int) -> tuple[list[Action], list[Action]]:
    """The menu of a turn step with nothing pending, less its card actions: (the dockings
    and the turn actions, the late actions), so that `legal_actions` is the first, then
    `legal_card_actions`, then the second. A bot that knows no card action could be its
    choice builds the menu without the cards' part, the slowest to build after the
    dockings'. Asked only of the seat whose turn it is, with nothing pending."""
    menu: list[Action] = []
    menu.extend(legal_docks(state, seat))
    can_dock = bool(menu)
    menu.extend(_judged(state, seat, _turn_candidates(state, seat), _UNASKED_REFUSALS,
                        can_dock))
    return menu, _judged(state, seat, _late_candidates(state, seat), _UNASKED_REFUSALS,
                         can_dock)


def _judged(state: GameState, seat: int, tried: list[Action],
            refusals: dict[type[Action], Judge], can_dock: bool) -> list[Action]:
    """The actions of `tried` that `refusal` accepts, the position's own checks made once:
    `refusals` holds the kinds `out_of_order` lets through now (`_UNASKED_REFUSALS` or
    `_ASKED_REFUSALS`), so any other kind is refused."""
    out: list[Action] = []
    for action in tried:
        kind = type(action)
        if kind is EndTurn:
            # ruling B9: once a legal docking is found there is no end yet; once none is left
            # B9 is answered, and the resources given back are all that is left to judge
            if not can_dock and kind in refusals and action.seat == seat \
                    and not _return_refusal(state, cast(EndTurn, action)):
                out.append(action)
            continue
        refuse = refusals.get(kind)
        if refuse is not None and action.seat == seat and not refuse(state, action):
            out.append(action)
    return out
