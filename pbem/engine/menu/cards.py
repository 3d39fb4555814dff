"""The legal card actions of a seat, judged a family at a time.

`legal_card_actions` gives exactly the card candidates (`alien_tech.candidates`) that
`alien_tech.use_refusal` / `discard_refusal` accept, in the same order. A family is one held
card's use or discard candidates (`alien_tech.candidate_families`), which lists a family
only of a held card, a discard family only of a card unused this turn while a discard is
left, and a use family of a used card only when the Oscillation Capacitor may repeat it. So
the rules every card shares are met before the family is judged, but for that repeat:

- a discard family: the card's own refusal alone;
- a use family: of a card used this turn, the rules every card shares (one answer for the
  Oscillation Capacitor's repeats, one for the rest); and the fuel cost, once per printed
  cost for the whole menu and before the card's own refusal (which may build what-if
  copies), unless the power declares that every candidate it builds is paid for by the
  fuel now (`candidates_within_fuel`: the Plasma Cannon's shots take no more ships than it
  pays for; the Orbital Teleporter and the Chameleon Cloak, of one price, build none
  unless the fuel pays it);
- the card's own `refusal` judges each candidate (all at once where the power offers
  `refusals`; the Orbital Teleporter's moves by `teleports`: the legal dockings of one
  what-if copy per ship moved answer every move of that ship), unless the
  power declares that every candidate it builds passes it (`candidates_pass_refusal`: the
  Plasma Cannon's subsets are made of the ships docked now; the value changers' of the
  seat's unplaced ships, to values in range; the Astrogation Servo's discards name the
  facilities with ships now). A facility of up to ten other ships makes a
  thousand such subsets, so this is where most of a Cannon holder's menu time went.
"""

from __future__ import annotations

from typing import Any, cast

from ..actions import Action
from ..alien_tech import (
    DiscardPower,
    UsePower,
    candidate_families,
    common_refusal,
    second_use,
)
from ..alien_tech.common import with_pohl
from ..alien_tech.orbital_teleporter import UseOrbitalTeleporter
from ..alien_tech.spec import CountedActions
from ..state import GameState
from .teleports import teleports_refused


def legal_card_actions(state: GameState, seat: int) -> list[Action]:
    """The card actions `seat` may take now (nothing pending, its turn), in menu order."""
    out: list[Action] = []
    for _, actions in legal_card_families(state, seat):
        out.extend(actions)
    return out


def legal_card_families(state: GameState, seat: int, counted: bool = False
                        ) -> list[tuple[UsePower[Any] | DiscardPower[Any], CountedActions]]:
    """`legal_card_actions` a family at a time, in menu order: each power with its legal
    actions (none empty). With `counted`, a family a power counts before making
    (`UsePower.counted`: the Plasma Cannon's shots) is that count, made only where read:
    such a power's candidates are within the fuel and pass its refusal, and only an unused
    card's are counted, so the count is the family's legal actions as it is."""
    out: list[tuple[UsePower[Any] | DiscardPower[Any], CountedActions]] = []
    have = state.seats[seat].fuel
    cards_used = state.turn.cards_used
    costs: dict[int, int] = {}  # printed fuel -> the cost with Pohl Foothills, for every card
    for card, power, candidates in candidate_families(state, seat, counted):
        if not candidates:
            continue
        if not isinstance(candidates, list):  # counted (see above): legal as it is
            out.append((power, candidates))
            continue
        actions: list[Action] = candidates
        if not isinstance(power, UsePower):  # the rules every discard shares: met
            judged = _own_judged(state, power, actions)
            if judged:
                out.append((power, judged))
            continue
        if card.id in cards_used:
            allowed: list[Action] = []
            shared: dict[bool, bool] = {}  # repeat -> refused by the rules every card shares
            for action in actions:
                repeat = second_use(state, action)
                refused = shared.get(repeat)
                if refused is None:
                    refused = shared[repeat] = common_refusal(state, card.id, seat,
                                                              repeat) is not None
                if not refused:
                    allowed.append(action)
        else:  # held and unused: the rules every card shares are met
            allowed = actions
        if not power.candidates_within_fuel:  # priced first: a price is cheaper to ask
            fuel = power.fuel
            paid: list[Action] = []
            for action in allowed:
                printed = fuel(state, action)
                cost = costs.get(printed)
                if cost is None:
                    cost = costs[printed] = with_pohl(state, seat, printed)
                if cost <= have:
                    paid.append(action)
            allowed = paid
        judged = _own_judged(state, power, allowed)
        if judged:
            out.append((power, judged))
    return out


def _own_judged(state: GameState, power: UsePower[Any] | DiscardPower[Any],
                actions: list[Action]) -> list[Action]:
    """The `actions` (of `power`) that the card's own refusal accepts."""
    if power.candidates_pass_refusal or not actions:
        return actions
    if power.action is UseOrbitalTeleporter:  # its candidates are of its kind
        moves = teleports_refused(state, cast("list[UseOrbitalTeleporter]", actions))
        return [a for a, no in zip(actions, moves, strict=True) if not no]
    own = power.refusal
    answers = power.refusals(state, actions) if power.refusals is not None \
        else [own(state, a) for a in actions]
    return [a for a, reason in zip(actions, answers, strict=True) if reason is None]


__all__ = ["legal_card_actions", "legal_card_families"]
