"""The greedy bot: the best-scoring legal action by a quick heuristic (docs/bots.md, "greedy").

`_score` weighs one action; `easy` and `strong` weigh the menu with it too (`ranking.py`), so
the levels differ in how they choose, not in what they think an action is worth.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .. import dice
from ..actions import (
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
from ..agendas.actions import DiscardAgenda, DrawAgendas, KeepAgendas, RevealAgenda
from ..alien_tech.catalog import BOT_SCORES, CARDS, DISCARDS, USES
from ..alien_tech.spec import CountedActions
from ..factions.catalog import BOARD_ACTIONS
from ..ids import FACTION_NAMES, VP_CARDS, Facility, Field
from ..menu.cards import legal_card_families
from ..rules import legal_actions, menu_beside_cards
from ..scoring import vps
from ..state import GameState
from ..territories import controller_of
from .factions import faction_score

# A plain str: a dict finds it several times faster than the StrEnum member.
_POSITRON: Final = str(Field.POSITRON)

# What a docking is worth to the greedy bot before the ship values are weighed.
DOCK_WORTH: Final[dict[str, float]] = {
    Facility.COLONY_CONSTRUCTOR: 20.0,
    Facility.TERRAFORMING_STATION: 18.0,
    Facility.SHIPYARD: 12.0,
    Facility.RAIDERS_OUTPOST: 6.0,
    Facility.ORBITAL_MARKET: 4.0,
    Facility.LUNAR_MINE: 5.0,
    Facility.ALIEN_ARTIFACT: 2.0,
    Facility.SOLAR_CONVERTER: 3.0,
    Facility.COLONIST_HUB: 4.0,
}


def greedy_bot(state: GameState, seat: int, rng: list[int]) -> Action:
    """The best-scoring legal action by a quick heuristic; ties broken by `rng`.

    The card actions are left out of the menu when none of them could be chosen: every
    power of the cards held scores `CARD_POWER_SCORE` and something else scores more. The
    choice is the same as over the whole menu (the ties are kept in menu order), and the
    card menu is the costliest part to build after the dockings. A card family whose power
    has no score of its own (`_FLAT_KINDS`) is not weighed one by one: each of its actions
    scores exactly `CARD_POWER_SCORE`, so it is counted (the Plasma Cannon's shots are not
    even made, `legal_card_families`) and only the action drawn is read."""
    if state.turn.pending is not None or state.phase == "over":
        menu = legal_actions(state, seat)
        if len(menu) == 1:
            return menu[0]  # nothing to weigh, and a single best draws nothing from `rng`
        return _drawn([_top(state, seat, menu, [])[1]], rng)
    menu, late = menu_beside_cards(state, seat)
    leader: list[int] = []
    top, best = _top(state, seat, menu, leader)
    late_top, late_best = _top(state, seat, late, leader)
    bests: list[CountedActions] = [best]  # the best actions, in menu order, in parts
    cards = state.seats[seat].cards
    scored = bool(cards) and any(card in _SCORED_CARDS for card in cards)
    if scored or cards and top <= CARD_POWER_SCORE and late_top <= CARD_POWER_SCORE:
        card_top, card_best = _cards_top(state, seat, leader)
        if card_top > top:
            top, bests = card_top, card_best
        elif card_top == top:
            bests.extend(card_best)  # in menu order: the cards' after the dockings and turn's
    if late_top > top:
        bests = [late_best]
    elif late_top == top:
        bests.append(late_best)
    return _drawn(bests, rng)


def _cards_top(state: GameState, seat: int, leader: list[int]
               ) -> tuple[float, list[CountedActions]]:
    """`_top` of the card menu, a family at a time: its best score, and the families' best
    actions with that score, in menu order (a whole family of a power without a score of
    its own, uncounted)."""
    top = _NO_SCORE
    bests: list[CountedActions] = []
    for power, actions in legal_card_families(state, seat, counted=True):
        if power.action in _FLAT_KINDS:  # every one scores CARD_POWER_SCORE
            family_top, family_best = CARD_POWER_SCORE, actions
        else:
            family_top, family_best = _top(state, seat, actions, leader)
        if family_top > top:
            top, bests = family_top, [family_best]
        elif family_top == top:
            bests.append(family_best)
    return top, bests


def _top(state: GameState, seat: int, menu: CountedActions, leader: list[int]
         ) -> tuple[float, list[Action]]:
    """The best score of `menu` and its actions with that score, in menu order (none and
    `_NO_SCORE` for an empty menu); `leader` holds the leading opponent once it is found (the
    same for every action of one menu)."""
    best: list[Action] = []
    best_score = _NO_SCORE
    for action in menu:
        if type(action) is Dock:  # the commonest choice, asked first and weighed here
            facility = action.facility
            if facility in FACTION_NAMES:  # a board's facility (`_dock`, without `_score`)
                score = _dock(state, seat, action, leader)
            else:
                # `_dock_score`, inline, its four commonest facilities called by name
                # (compiled, a direct call; a function found in a dict is a generic call)
                if facility == _COLONIST_HUB:
                    score = _hub_worth(state, seat, action)
                elif facility == _SOLAR_CONVERTER:
                    score = _solar_worth(state, seat, action)
                elif facility == _ALIEN_ARTIFACT:
                    score = _artifact_worth(state, seat, action)
                elif facility == _LUNAR_MINE:
                    score = _mine_worth(state, seat, action)
                else:
                    worth = _DOCK_SCORES.get(facility)
                    score = _PLAIN_WORTH.get(facility, 0.0) if worth is None \
                        else worth(state, seat, action)
                if action.relic is not None:
                    score -= 0.2
        elif type(action) is Land:  # the next commonest, called by name as above
            score = _land(state, seat, action, leader)
        elif type(action) is EndTurn:
            score = _end_turn(state, seat, action, leader)
        elif type(action) in _CARD_KINDS:  # a Plasma Cannon holder's menu is mostly its shots
            score = _card_score(state, seat, action)
        else:
            score = _score(state, seat, action, leader)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return best_score, best


def _drawn(bests: list[CountedActions], rng: list[int]) -> Action:
    """One of the best actions (`bests`: their parts, in menu order), drawn by `rng`; a
    single best draws nothing."""
    count = 0
    for part in bests:
        count += len(part)
    index = dice.below(rng, count) if count > 1 else 0
    for part in bests:
        if index < len(part):
            return part[index]
        index -= len(part)
    raise ValueError("no action to choose")


_NO_SCORE: Final = float("-inf")


def _score(state: GameState, seat: int, action: Action,
           leader: list[int] | None = None) -> float:
    """The worth of one action; `leader` holds the leading opponent once it is found (the
    same for every action of one menu)."""
    scorer = _SCORERS.get(type(action))  # every kind is its own class: one lookup, no chain
    if scorer is not None:
        return scorer(state, seat, action, leader)
    faction = faction_score(state, seat, action)  # the Faction boards' actions
    if faction is not None:
        return faction
    return _card_score(state, seat, action)


Scorer = Callable[[GameState, int, Any, "list[int] | None"], float]


def _dock(state: GameState, seat: int, action: Dock, leader: list[int] | None) -> float:
    faction = faction_score(state, seat, action)  # a Faction board's facility
    return _dock_score(state, seat, action) if faction is None else faction


def _land(state: GameState, seat: int, action: Land, leader: list[int] | None) -> float:
    return _land_score(state, seat, action.territory, leader)


def _raid(state: GameState, seat: int, action: Steal | StealCard,
          leader: list[int] | None) -> float:
    return _raid_score(state, seat, action, leader)


def _trade(state: GameState, seat: int, action: Trade, leader: list[int] | None) -> float:
    me = state.seats[seat]
    return 15.0 - action.rate if me.ore < 4 and me.fuel >= action.rate + 1 else -1.0


def _claim(state: GameState, seat: int, action: Claim, leader: list[int] | None) -> float:
    return 25.0 if action.card in VP_CARDS else 14.0


def _cycle(state: GameState, seat: int, action: Cycle, leader: list[int] | None) -> float:
    return 0.5 if not any(c in VP_CARDS for c in state.display) else -1.0


def _end_turn(state: GameState, seat: int, action: EndTurn, leader: list[int] | None) -> float:
    return -10.0 - action.return_ore  # give back fuel before ore


def _draw_agendas(state: GameState, seat: int, action: DrawAgendas,
                  leader: list[int] | None) -> float:
    me = state.seats[seat]
    return 12.0 if len(me.agendas) + len(me.revealed) < 3 else -2.0


def _discard_agenda(state: GameState, seat: int, action: DiscardAgenda,
                    leader: list[int] | None) -> float:
    return -0.1 * action.index  # the oldest first


def _worth(score: float) -> Scorer:
    """An action kind always worth `score`."""
    return lambda state, seat, action, leader: score


_SCORERS: Final[dict[type[Action], Scorer]] = {
    Dock: _dock,
    Land: _land,
    Steal: _raid,
    StealCard: _raid,
    Trade: _trade,
    Claim: _claim,
    Launch: _worth(30.0),
    BuyRelic: _worth(16.0),
    Cycle: _cycle,
    EndTurn: _end_turn,
    EndRaid: _worth(0.0),  # only when nothing is worth taking
    RevealAgenda: _worth(40.0),  # a free VP: reveal whenever allowed
    DrawAgendas: _draw_agendas,
    DiscardAgenda: _discard_agenda,
    KeepAgendas: _worth(1.0),
}


# The card powers' actions, which `_score` hands to `_card_score` after its other tests.
_CARD_KINDS: Final = frozenset(kind for kind in (*USES, *DISCARDS) if kind not in BOARD_ACTIONS)


# What a card power without a `bot_score` is worth: played only rather than ending the turn.
CARD_POWER_SCORE: Final = -5.0


def _card_score(state: GameState, seat: int, action: Action) -> float:
    """A card power's worth: its spec's `bot_score` (some Factions cards, cheaply: rulings
    T1-T8); a power without one is played only rather than ending the turn."""
    score = BOT_SCORES.get(type(action))
    if score is None:
        return CARD_POWER_SCORE
    return score(state, seat, action, DOCK_WORTH)


# The cards with a power that may score other than `CARD_POWER_SCORE`: while none is held,
# the card menu matters only when nothing else scores above it.
# The card powers' actions that always score `CARD_POWER_SCORE`: a family of one is
# counted, not weighed (`_cards_top`).
_FLAT_KINDS: Final = frozenset(kind for kind in _CARD_KINDS if kind not in BOT_SCORES)


_SCORED_CARDS: Final = frozenset(
    card.id for card in CARDS.values() for power in (card.use, card.discard)
    if power is not None and (power.action in BOT_SCORES or power.action not in _CARD_KINDS))


# The facilities as plain names: an Enum member looked up per docking scored is slow.
_COLONIST_HUB: Final[str] = str(Facility.COLONIST_HUB)
_SOLAR_CONVERTER: Final[str] = str(Facility.SOLAR_CONVERTER)
_LUNAR_MINE: Final[str] = str(Facility.LUNAR_MINE)
_ALIEN_ARTIFACT: Final[str] = str(Facility.ALIEN_ARTIFACT)
_RAIDERS_OUTPOST: Final[str] = str(Facility.RAIDERS_OUTPOST)
_ORBITAL_MARKET: Final[str] = str(Facility.ORBITAL_MARKET)
_COLONY_CONSTRUCTOR: Final[str] = str(Facility.COLONY_CONSTRUCTOR)


def _dock_score(state: GameState, seat: int, action: Dock) -> float:
    worth = _DOCK_SCORES.get(action.facility)
    score = _PLAIN_WORTH.get(action.facility, 0.0) if worth is None \
        else worth(state, seat, action)
    if action.relic is not None:
        score -= 0.2
    return score


# What a docking at these facilities is worth besides `DOCK_WORTH`, each starting from it (so
# the sums are made in the same order whichever facility): one lookup instead of a chain of
# tests per docking weighed.

def _hub_worth(state: GameState, seat: int, action: Dock) -> float:
    return _HUB_WORTH + (26.0 if action.launch else 1.5 * len(action.values))


def _solar_worth(state: GameState, seat: int, action: Dock) -> float:
    return _SOLAR_WORTH + (0.5 * action.values[0]
                           - (2.0 if state.seats[seat].fuel > 5 else 0.0))


def _mine_worth(state: GameState, seat: int, action: Dock) -> float:
    return _MINE_WORTH - (0.4 * action.values[0] + (2.0 if state.seats[seat].ore > 5 else 0.0))


def _artifact_worth(state: GameState, seat: int, action: Dock) -> float:
    value = action.values[0]
    score = _ARTIFACT_WORTH + 0.3 * value
    if state.turn.artifact_total + value >= 8 and state.display:
        score += 8.0
    return score


def _raiders_worth(state: GameState, seat: int, action: Dock) -> float:
    return _RAIDERS_WORTH + 0.5 * max(s.fuel + s.ore for i, s in enumerate(state.seats)
                                      if i != seat)


def _market_worth(state: GameState, seat: int, action: Dock) -> float:
    value = action.values[0]
    return _MARKET_WORTH + (2.0 - value if state.seats[seat].fuel >= value else -4.0)


def _constructor_worth(state: GameState, seat: int, action: Dock) -> float:
    # keep high triples for nothing better: use low ones first
    return _CONSTRUCTOR_WORTH - 0.1 * action.values[0]


_HUB_WORTH: Final = DOCK_WORTH[_COLONIST_HUB]
_SOLAR_WORTH: Final = DOCK_WORTH[_SOLAR_CONVERTER]
_MINE_WORTH: Final = DOCK_WORTH[_LUNAR_MINE]
_ARTIFACT_WORTH: Final = DOCK_WORTH[_ALIEN_ARTIFACT]
_RAIDERS_WORTH: Final = DOCK_WORTH[_RAIDERS_OUTPOST]
_MARKET_WORTH: Final = DOCK_WORTH[_ORBITAL_MARKET]
_CONSTRUCTOR_WORTH: Final = DOCK_WORTH[_COLONY_CONSTRUCTOR]
# `DOCK_WORTH` by plain strs, as the menu's dockings name their facilities, for `_top`.
_PLAIN_WORTH: Final[dict[str, float]] = {str(f): worth for f, worth in DOCK_WORTH.items()}
_DOCK_SCORES: Final[dict[str, Callable[[GameState, int, Dock], float]]] = {
    _COLONIST_HUB: _hub_worth,
    _SOLAR_CONVERTER: _solar_worth,
    _LUNAR_MINE: _mine_worth,
    _ALIEN_ARTIFACT: _artifact_worth,
    _RAIDERS_OUTPOST: _raiders_worth,
    _ORBITAL_MARKET: _market_worth,
    _COLONY_CONSTRUCTOR: _constructor_worth,
}


def _land_score(state: GameState, seat: int, territory: str,
                leader: list[int] | None = None) -> float:
    counts = state.colonies[territory]
    before = state.controllers.get(territory)
    after_counts = list(counts)
    after_counts[seat] += 1
    after = controller_of(after_counts)
    score = 0.0
    if after == seat and before != seat:
        score += 10.0
        if state.fields.get(_POSITRON) == territory:
            score += 3.0
    if before is not None and before != seat and after != before:
        score += 4.0 + (2.0 if before == _leader_once(state, seat, leader) else 0.0)
    if before == seat:
        score -= 2.0  # already ours: a colony here adds only its own point
    return score - 0.1 * sum(counts)


def _raid_score(state: GameState, seat: int, action: Steal | StealCard,
                leader: list[int] | None = None) -> float:
    victim = state.seats[action.victim]
    bonus = 2.0 if action.victim == _leader_once(state, seat, leader) else 0.0
    if isinstance(action, StealCard):
        mine = state.seats[seat].cards
        if action.card in VP_CARDS and action.card not in mine:
            return 20.0 + bonus
        return -1.0
    held = victim.ore if action.resource == "ore" else victim.fuel
    return (3.0 if action.resource == "ore" else 2.0) + bonus + 0.1 * held


def _leader_once(state: GameState, seat: int, known: list[int] | None) -> int:
    """`_leader`, kept in `known` (when given) for the other actions of the same menu."""
    if known is None:
        return _leader(state, seat)
    if not known:
        known.append(_leader(state, seat))
    return known[0]


def _leader(state: GameState, seat: int) -> int:
    """The opponent with most VP (the lowest seat on a tie)."""
    best, most = -1, -1
    for i, points in enumerate(vps(state)):  # the first of the highest: max() over (vp, -seat)
        if i != seat and points > most:
            best, most = i, points
    return best
