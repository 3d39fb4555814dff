"""Checks that hold at every step of every game; used by test_invariants and the benchmark.

`checked_game` plays one bot game on the fast path and, at every step, checks the position
(`check_position`) and the menu (`check_menu`); it returns the final state, the actions and
a few snapshots for replay checks.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pbem.engine import (
    GameState,
    RulesError,
    action_from_json,
    action_to_json,
    apply,
    apply_in_place,
    awaited,
    check,
    dice,
    format_action,
    legal_actions,
    new_game,
    parse_action,
    replay,
    rules,
)
from pbem.engine.actions import Action, EndTurn
from pbem.engine.board import LAYOUT, group_count
from pbem.engine.bots import Bot
from pbem.engine.ids import (
    BASE_DECK,
    COLONIES,
    DISPLAY_SIZE,
    FACILITY_NAMES,
    FACTIONS_DECK,
    HUB_CIRCLES,
    RESOURCE_LIMIT,
    SHIPS_MAX,
    SHIPS_MIN,
    TERRITORY_NAMES,
    Facility,
)
from pbem.engine.lookup import SERVO_SHIPS
from pbem.engine.state import BAY, RELIC_HOME, STOCK, UNPLACED
from pbem.engine.territories import controller_of

MAX_STEPS = 4000  # far above any game seen (random 4-seat games average ~400 steps)


def roundtrip(state: GameState) -> GameState:
    return GameState.from_json(json.loads(json.dumps(state.to_json())))


def check_position(state: GameState) -> None:
    """Resources, ships, colonies, control and cards are all where the rules allow."""
    assert roundtrip(state) == state, "JSON round-trip changed the state"
    for seat in state.seats:
        assert seat.fuel >= 0 and seat.ore >= 0, "a negative resource"
        assert seat.colonies >= 0 and 0 <= seat.hub_circle <= HUB_CIRCLES
        assert len(seat.cards) == len(set(seat.cards)), "two copies of a card in one hand"
    _check_ships(state)
    for i, seat in enumerate(state.seats):
        landed = sum(counts[i] for counts in state.colonies.values())
        on_hub = 1 if seat.hub_circle else 0
        pending = state.turn.pending
        flying = pending is not None and pending["kind"] == "land" \
            and pending["seat"] == i and pending["source"] == "launch"
        total = seat.colonies + on_hub + landed + (1 if flying else 0)
        assert total == COLONIES[state.players], f"colonies lost: {pending}"
    for territory, counts in state.colonies.items():
        assert min(counts) >= 0
        assert state.controllers[territory] == controller_of(counts), "wrong controller"
    cards = Counter(state.deck) + Counter(state.display) + Counter(state.discard)
    for seat in state.seats:
        cards.update(seat.cards)
    deck = Counter(BASE_DECK) + (Counter(FACTIONS_DECK) if state.options["factions"] else Counter())
    assert cards == deck, "Alien Tech cards appeared or vanished"  # ruling B4
    _check_hub(state)
    assert len(state.display) <= DISPLAY_SIZE
    if state.phase != "over":
        assert awaited(state) is not None


def _check_ships(state: GameState) -> None:
    active = state.turn.seat
    groups: Counter[tuple[str, int]] = Counter()
    relic = state.ships[-1]
    assert relic.owner is None and all(s.owner is not None for s in state.ships[:-1])
    # lookup.colour_indices reads a colour's ships as one run of the list
    assert [s.owner for s in state.ships[:-1]] == [
        seat for seat in range(state.players) for _ in range(SHIPS_MAX)], "ships out of order"
    assert (relic.loc == RELIC_HOME) == (state.relic_owner is None), "Relic Ship misplaced"
    for ship in state.ships:
        commander = state.relic_owner if ship.is_relic else ship.owner
        if ship.loc in (STOCK, BAY, RELIC_HOME):
            assert ship.slot == -1 and ship.value == 0, f"{ship} keeps a face or a slot"
            assert ship.loc != STOCK or not ship.is_relic, "the Relic Ship in a stock"
            assert ship.loc != RELIC_HOME or ship.is_relic
        elif ship.loc == UNPLACED:
            borrowed = ship.id in state.turn.facts.get(SERVO_SHIPS, ())  # ruling T1 / B20
            assert commander == active or borrowed, f"{ship} unplaced outside its turn"
            assert 1 <= ship.value <= 6 and ship.slot == -1
        else:
            assert ship.loc in FACILITY_NAMES, f"{ship} at an unknown place"
            assert 1 <= ship.value <= 6
            if ship.loc == Facility.COLONIST_HUB and state.players == 5:
                assert commander is not None and 0 <= ship.slot < 4  # ruling F16: any port
            elif ship.loc == Facility.COLONIST_HUB:
                assert commander is not None
                # Its owner's track, or the track of a seat that borrowed it with the
                # Astrogation Servo (rulings T1, B20) and docked it there on its own turn.
                tracks = [seat.hub_track for seat in state.seats]
                assert ship.slot in tracks, "off every Hub track"
            else:
                assert 0 <= ship.slot < group_count(state, ship.loc), f"{ship} on no port"
            groups[(ship.loc, ship.slot)] += 1
    for (facility, _slot), count in groups.items():
        assert count <= LAYOUT[facility][1], f"too many ships in one group at {facility}"
    for seat in range(state.players):
        in_play = sum(1 for s in state.ships if s.owner == seat and s.loc != STOCK)
        assert in_play >= SHIPS_MIN, "fewer than 3 ships of a colour in play"


def _check_hub(state: GameState) -> None:
    """Factions: chosen boards are distinct; with five players (ruling F16) no two colonies
    share a circle and nobody has more than 3 ships at the Colonist Hub."""
    chosen = [s.faction for s in state.seats if s.faction]
    assert len(chosen) == len(set(chosen)), "a Faction board chosen twice"
    if state.phase != "draft" and state.options["factions"]:
        assert len(chosen) == state.players and not state.draft, "the draft is unfinished"
    if state.players < 5:
        return
    circles = [(s.hub_track, s.hub_circle) for s in state.seats if s.hub_circle]
    assert len(circles) == len(set(circles)), "two colonies on one Colonist Hub circle"
    for seat in range(state.players):
        mine = [s for s in state.ships if s.loc == Facility.COLONIST_HUB
                and (state.relic_owner if s.is_relic else s.owner) == seat]
        assert len(mine) <= 3, "more than 3 ships of one player at the Colonist Hub"


def check_menu(state: GameState) -> list[Action]:
    """The menu is exactly the candidates `refusal` accepts, in order; every entry passes
    `check` and round-trips through text and JSON. The menu's dockings come from the
    accelerator (`pbem.engine.menu`: shape tables, groups judged at once), the other side
    from the plain rules (`facilities.candidates`, every choice of ships at every facility,
    each judged by `refusal`): two separate codes, and this is what proves them equal."""
    seat = awaited(state)
    assert seat is not None
    menu = legal_actions(state, seat)
    assert menu, "the awaited seat has nothing to do: the game would stall"
    slow = [a for a in rules.candidates(state, seat) if rules.refusal(state, a) is None]
    assert menu == slow, f"the menu and refusal disagree: {menu!r} != {slow!r}"
    for other in range(state.players):
        if other != seat:
            assert legal_actions(state, other) == []
    for action in menu:
        check(state, action)
        assert parse_action(format_action(action), seat, state.players) == action
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
    return menu


def checked_game(players: int, seed: int, bot: Bot, sample: int = 7, menus: bool = True,
                 options: dict[str, Any] | None = None, audit: list[int] | None = None
                 ) -> tuple[GameState, list[Action], dict[int, Any]]:
    """Play a game, checking everything at every step; `sample`: every how many steps the
    slow path (`apply` on a copy) is compared with the fast one and snapshots are kept.
    `audit` ([every how many steps, candidates tried so far]): the exhaustive menu audit
    (`audit_menu`, `audit_picks`) at those steps, adding up the candidates tried."""
    state = new_game(players, seed, options)
    rng = [seed ^ 0x1DEA, 0]
    actions: list[Action] = []
    snapshots: dict[int, Any] = {}
    while state.phase != "over":
        assert len(actions) < MAX_STEPS, "the game did not end"
        check_position(state)
        seat = awaited(state)
        assert seat is not None
        if menus:
            check_menu(state)
        if audit is not None and len(actions) % audit[0] == 0:
            audit[1] += audit_menu(state)[0]
            audit_picks(state)
        action = bot(state, seat, rng)
        if len(actions) % sample == 0:
            before = state.to_json()
            new, _ = apply(state, action)
            assert state.to_json() == before, "apply changed its input"
            snapshots[len(actions)] = before
        apply_in_place(state, action)
        if len(actions) % sample == 0:
            assert new == state, "apply and apply_in_place disagree"
        if isinstance(action, EndTurn):
            me = state.seats[action.seat]
            assert me.fuel + me.ore <= RESOURCE_LIMIT
        actions.append(action)
    check_position(state)
    assert state.result is not None and state.result["winners"]
    return state, actions, snapshots


def check_replay(players: int, seed: int, state: GameState, actions: list[Action],
                 snapshots: dict[int, Any], picks: list[int],
                 options: dict[str, Any] | None = None) -> None:
    """`replay` gives the final state and the snapshots at the chosen steps."""
    assert replay(players, seed, options, actions) == state
    for step in picks:
        assert replay(players, seed, options, actions[:step]).to_json() == snapshots[step]


def pick(rng: list[int], items: list[Any], k: int) -> list[Any]:
    pool = list(items)
    return [pool.pop(dice.below(rng, len(pool))) for _ in range(min(k, len(pool)))]


def expect_refusal_only(state: GameState, action: Action) -> bool:
    """`check` refuses with a readable RulesError or accepts; True when it accepts."""
    try:
        check(state, action)
    except RulesError as exc:
        assert exc.message and str(exc), f"an empty refusal for {action!r}"
        return False
    return True


def apply_slow(players: int, seed: int, actions: list[Action],
               options: dict[str, Any] | None = None) -> GameState:
    state = new_game(players, seed, options)
    for action in actions:
        state, _ = apply(state, action)
    return state


def mixed_bot(seed: int, step: int) -> Bot:
    """The mixed seat of issue 12: greedy when `(seed + step) % 3`, otherwise random."""
    from pbem.engine.bots import greedy_bot, random_bot
    return greedy_bot if (seed + step) % 3 else random_bot


def mixed_game(players: int, seed: int, options: dict[str, Any] | None = None,
               max_steps: int = MAX_STEPS) -> tuple[int, BaseException | None, Action | None]:
    """Play one mixed game (greedy and random seats, `mixed_bot`) through `apply_in_place`:
    (steps played, the exception raised if any, the action that raised it). Every action comes
    from the menu, so `check` accepted it; anything raised from there is a bug in `check`."""
    state = new_game(players, seed, options)
    rng = [seed ^ 0x5EED, 0]
    step = 0
    action: Action | None = None
    try:
        while state.phase != "over":
            if step >= max_steps:
                return step, RuntimeError("the game did not end"), None
            seat = awaited(state)
            assert seat is not None
            action = None
            action = mixed_bot(seed, step)(state, seat, rng)
            apply_in_place(state, action)
            step += 1
    except Exception as exc:  # noqa: BLE001 - counted and reported, never hidden
        return step, exc, action
    return step, None, None


# -- the exhaustive menu audit (issue 12) ----------------------------------------------------
# Every candidate of the kinds whose choices are subsets or shapes, made here by brute force
# from the position alone (not from the cards' own `*_candidates`): `check` must accept
# exactly those the menu covers.

def _subsets(items: list[Any]) -> list[tuple[Any, ...]]:
    """Every distinct non-empty sub-multiset of `items`, sorted."""
    out: set[tuple[Any, ...]] = set()
    for mask in range(1, 1 << len(items)):
        out.add(tuple(sorted(items[i] for i in range(len(items)) if mask >> i & 1)))
    return sorted(out)


def _targets(state: GameState, facility: str) -> list[tuple[int, int, bool]]:
    """(commander, value, is the Relic Ship) of every ship at `facility`, whoever's."""
    from pbem.engine.lookup import commander
    out = []
    for s in state.ships:
        owner = commander(state, s)
        if s.loc == facility and owner is not None:
            out.append((owner, s.value, s.is_relic))
    return out


def _hand(state: GameState, seat: int) -> list[tuple[int, bool]]:
    from pbem.engine.facilities import ship_tokens
    return list(ship_tokens(state, seat))


def audit_candidates(state: GameState, seat: int) -> list[Action]:
    """Every Plasma Cannon shot and Chameleon Cloak replacement (each subset of the ships at
    each facility, with and without your Relic Ship replacing, launching or not), every
    Temporal Warper re-roll (each subset of your unplaced ships), every Orbital Teleporter
    move (each docked ship of yours to each facility with each 0-3 unplaced ships joining)
    and every Smuggle (each three of your ships with each other one), plus the plain rules'
    own dockings; and every discard of the cards whose discards are judged as they are listed:
    the Plasma Cannon's at each ship at each facility, the Orbital Teleporter's of each
    seat's colony from each territory to each, the Chameleon Cloak's swap of each two
    territories, the Polarity Device's swap of each two colonies (of any seats, anywhere)."""
    from itertools import combinations

    from pbem.engine import facilities
    from pbem.engine.alien_tech.chameleon_cloak import DiscardChameleonCloak, UseChameleonCloak
    from pbem.engine.alien_tech.orbital_teleporter import (
        DiscardOrbitalTeleporter,
        UseOrbitalTeleporter,
    )
    from pbem.engine.alien_tech.plasma_cannon import DiscardPlasmaCannon, UsePlasmaCannon
    from pbem.engine.alien_tech.polarity_device import DiscardPolarityDevice
    from pbem.engine.alien_tech.temporal_warper import UseTemporalWarper
    from pbem.engine.factions.smugglers_alliance import Smuggle

    out: list[Action] = list(facilities.candidates(state, seat))
    hand = _hand(state, seat)
    relic = next((v for v, r in hand if r), None)
    for facility in FACILITY_NAMES:
        for chosen in _subsets(_targets(state, facility))[:4096]:
            owners = tuple(o for o, _, _ in chosen)
            values = tuple(v for _, v, _ in chosen)
            at = next((k for k, (_, _, r) in enumerate(chosen) if r), None)
            out.append(UsePlasmaCannon(seat, facility, owners, values, at))
            for launch in (False, True):  # a launch is refused but at the Hub (ruling T2c)
                out.append(UseChameleonCloak(seat, facility, owners, values, at, None, launch))
                if relic is not None:
                    out.append(UseChameleonCloak(seat, facility, owners, values, at, relic,
                                                 launch))
    for chosen_hand in _subsets(hand):
        out.append(UseTemporalWarper(seat, tuple(sorted(v for v, _ in chosen_hand)),
                                     next((v for v, r in chosen_hand if r), None)))
    joiners: list[tuple[tuple[int, bool], ...]] = [(), *(c for c in _subsets(hand)
                                                       if len(c) <= 3)]
    for s in state.ships:
        if s.loc in FACILITY_NAMES and (state.relic_owner if s.is_relic else s.owner) == seat:
            for to in FACILITY_NAMES:
                for joined in joiners:
                    out.append(UseOrbitalTeleporter(
                        seat, s.loc, s.value, to, s.is_relic,
                        tuple(sorted(v for v, _ in joined)),
                        next((v for v, r in joined if r), None)))
    for facility in FACILITY_NAMES:
        for owner, value, is_relic in sorted(set(_targets(state, facility))):
            out.append(DiscardPlasmaCannon(seat, owner, value, facility, is_relic))
    for territory in TERRITORY_NAMES:
        for to in TERRITORY_NAMES:
            out.extend(DiscardOrbitalTeleporter(seat, owner, territory, to)
                       for owner in range(state.players))
    out.extend(DiscardChameleonCloak(seat, first, second)
               for first, second in combinations(TERRITORY_NAMES, 2))
    colonies = [(owner, t) for t in TERRITORY_NAMES for owner in range(state.players)]
    out.extend(DiscardPolarityDevice(seat, owner, first, other, second)
               for (owner, first), (other, second) in combinations(colonies, 2))
    for trio in (c for c in _subsets(hand) if len(c) == 3):
        rest = list(hand)
        for t in trio:
            rest.remove(t)
        for single in set(rest):
            out.append(Smuggle(seat, tuple(v for v, _ in trio), single[0],
                               next((v for v, r in trio if r), None), single[1]))
    return out


def audit_kinds() -> frozenset[str]:
    """The kinds `audit_candidates` covers in full."""
    return frozenset({"dock", "use_plasma_cannon", "use_chameleon_cloak",
                      "use_temporal_warper", "use_orbital_teleporter", "smuggle",
                      "discard_plasma_cannon", "discard_orbital_teleporter",
                      "discard_chameleon_cloak", "discard_polarity_device"})


def normal(action: Action) -> Action:
    """One form for equal choices written in another order."""
    import dataclasses
    data = {f.name: getattr(action, f.name) for f in dataclasses.fields(action)}
    if "owners" in data and "ships" in data:  # targets: (owner, value) pairs, any order
        at = data.get("relic_at")
        pairs = sorted((o, v, k == at) for k, (o, v) in
                       enumerate(zip(data["owners"], data["ships"], strict=False)))
        data["owners"] = tuple(o for o, _, _ in pairs)
        data["ships"] = tuple(v for _, v, _ in pairs)
        data["relic_at"] = next((k for k, (_, _, r) in enumerate(pairs) if r), None)
    for name in ("values", "joined"):
        if isinstance(data.get(name), tuple):
            data[name] = tuple(sorted(data[name]))
    if action.kind == "use_temporal_warper":
        data["ships"] = tuple(sorted(data["ships"]))
    if action.kind == "discard_polarity_device":  # two colonies, either named first
        board = list(TERRITORY_NAMES)
        ends = sorted([(board.index(data["territory"]), data["owner"]),
                       (board.index(data["other_territory"]), data["other"])])
        data["territory"], data["owner"] = board[ends[0][0]], ends[0][1]
        data["other_territory"], data["other"] = board[ends[1][0]], ends[1][1]
    return type(action)(**data)


def audit_menu(state: GameState) -> tuple[int, int, int]:
    """(candidates tried, missing from the menu, offered but refused) at this position; the
    test asserts both the last are 0."""
    seat = awaited(state)
    assert seat is not None
    menu = {normal(a) for a in legal_actions(state, seat) if a.kind in audit_kinds()}
    tried = audit_candidates(state, seat)
    accepted = {normal(a) for a in tried if rules.refusal(state, a) is None}
    missing = accepted - menu
    extra = {a for a in menu if rules.refusal(state, a) is not None}
    assert not missing, f"check accepts what the menu lacks: {sorted(map(repr, missing))[:5]}"
    assert not extra
    return len(tried), len(missing), len(extra)


def audit_picks(state: GameState) -> tuple[int, int]:
    """Every listed action of a picked kind is one choice of one pick of the view's (or, in a
    family of one ship, a plain entry), and every choice of a pick `check` accepts is listed;
    returns (choices the picks stand for, of which `check` refuses)."""
    from pbem.engine.menu.picks import PICKED_KINDS, covered, family, picks
    seat = awaited(state)
    assert seat is not None
    menu = legal_actions(state, seat)
    found = picks(state, seat, menu)
    stands: set[Action] = set()
    for p in found:
        assert 1 <= p.least <= p.most <= len(p.items)
        assert type(p).from_json(json.loads(json.dumps(p.to_json()))) == p
        choices = covered(p)
        stands.update(normal(a) for a in choices)
        head, words, tail = p.notation()  # what the page's checkboxes post
        chosen = list(range(len(p.items)))[:p.most]
        typed = " ".join([head, *(words[i] for i in chosen), tail]).strip()
        assert normal(parse_action(typed, seat, state.players)) == normal(p.action(chosen))
    listed = [a for a in menu if a.kind in PICKED_KINDS]
    picked = {p.family for p in found}
    for action in listed:
        if family(action) in picked:
            assert normal(action) in stands, f"no pick stands for {action!r}"
        else:
            assert sum(family(a) == family(action) for a in listed) == 1
    accepted = {a for a in stands if rules.refusal(state, a) is None}
    assert accepted <= {normal(a) for a in listed}, "a pick's choice is legal but unlisted"
    return len(stands), len(stands) - len(accepted)
