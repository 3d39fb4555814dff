"""The 24 Agendas of the game: one `AgendaSpec` each (ids.toml [agendas] order; the printed
wording from the Factions rulebook), and the tables derived from them.

Nothing else names every Agenda: the deck, the reveal's words, the end-game scoring and the
latching accelerator (`latch.py`) read `SPECS`; tests/engine/test_agendas.py checks the list
against ids.toml, and tests/engine/test_agenda_latch.py the accelerator against the plain
conditions declared here.
"""

from __future__ import annotations

from typing import Final

from ..ids import Card, Territory
from .conditions import (
    absent,
    artifact_eight,
    controls,
    fill_mine,
    fill_solar,
    four_of_a_kind,
    four_unique,
    holds,
    last_to_first,
    low_roll,
    others_three,
    rob_everyone,
    rolled,
    sequential,
    single_colony,
    three_fields,
)
from .spec import CARDS, AgendaSpec

T = Territory

# In ids.toml order: the Agenda deck is built in this order before its shuffle, and the
# conditions met are latched in it.
SPECS: Final[tuple[AgendaSpec, ...]] = (
    AgendaSpec(
        id="fleet_of_seven", in_game_text="Gather your fleet of seven ships",
        end_game_text="You possess a Resource Cache and an Oscillation Capacitor",
        in_game=lambda st, s, f: f.get("gathered", 0) >= 7, reads=("gathered",),
        end_game=holds(Card.RESOURCE_CACHE, Card.OSCILLATION_CAPACITOR)),
    AgendaSpec(
        id="five_in_a_row", in_game_text="Roll five sequential ships without using Alien Tech",
        end_game_text="You control Pohl Foothills",
        in_game=lambda st, s, f: sequential(rolled(f)), reads=("roll",),
        end_game=controls(T.POHL_FOOTHILLS)),
    AgendaSpec(
        id="three_colonies_one_turn", in_game_text="Land three colonies in a single turn",
        end_game_text="You control Herbert Valley",
        in_game=lambda st, s, f: f.get("landed", 0) >= 3, reads=("landed",),
        end_game=controls(T.HERBERT_VALLEY)),
    AgendaSpec(
        id="four_of_a_kind", in_game_text="Roll four-of-a-kind without using Alien Tech",
        end_game_text="You control Van Vogt Mountains",
        in_game=lambda st, s, f: four_of_a_kind(rolled(f)), reads=("roll",),
        end_game=controls(T.VAN_VOGT_MOUNTAINS)),
    AgendaSpec(
        id="two_takeovers",
        in_game_text="Take control of two territories belonging to other players in a single "
                     "turn",
        end_game_text="You possess a Plasma Cannon and an Electrofabricator",
        in_game=lambda st, s, f: len(f.get("takeovers", [])) >= 2, reads=("takeovers",),
        end_game=holds(Card.PLASMA_CANNON, Card.ELECTROFABRICATOR)),
    AgendaSpec(
        id="six_ore", in_game_text="Gain six or more ore in a single turn",
        end_game_text="You control a territory with a single colony on it",
        in_game=lambda st, s, f: f.get("ore", 0) >= 6, reads=("ore",),
        end_game=single_colony),
    AgendaSpec(
        id="four_unique_techs",
        in_game_text="Possess four Alien Tech cards that no other player possesses",
        end_game_text="You control Asimov Crater",
        in_game=four_unique, markable=True,
        end_game=controls(T.ASIMOV_CRATER)),
    AgendaSpec(
        id="isolated_landing",
        in_game_text="Land a colony on a territory that already has the Isolation Field on it",
        end_game_text="You control Bradbury Plateau",
        in_game=lambda st, s, f: bool(f.get("isolated")), reads=("isolated",),
        end_game=controls(T.BRADBURY_PLATEAU)),
    AgendaSpec(
        id="bump_yourself", in_game_text="Bump your own ships from the Raiders' Outpost",
        end_game_text="You control a territory containing three or more colonies belonging "
                      "to other players",
        in_game=lambda st, s, f: bool(f.get("bumped_self")), reads=("bumped_self",),
        end_game=others_three),
    AgendaSpec(
        id="twelve_fuel", in_game_text="Gain twelve or more fuel in a single turn",
        end_game_text="You control a territory with three field generators on it",
        in_game=lambda st, s, f: f.get("fuel", 0) >= 12, reads=("fuel",),
        end_game=three_fields),
    AgendaSpec(
        id="two_techs_one_turn", in_game_text="Gain two or more Alien Tech cards in a single turn",
        end_game_text="You possess a Stasis Beam and a Solar Harvester",
        in_game=lambda st, s, f: len(st.turn.gained) >= 2, reads=(CARDS,),
        end_game=holds(Card.STASIS_BEAM, Card.SOLAR_HARVESTER)),
    AgendaSpec(
        id="last_to_first",
        in_game_text="Go from the lowest untied score to the highest untied score in a single "
                     "turn",
        end_game_text="You possess a Booster Pod and an Experimental FTL Drive",
        in_game=last_to_first, live=True,
        end_game=holds(Card.BOOSTER_POD, Card.EXPERIMENTAL_FTL_DRIVE)),
    AgendaSpec(
        id="shared_gain", in_game_text="Move colonies so that you and an opponent both gain VPs",
        end_game_text="You control Burroughs Desert",
        in_game=lambda st, s, f: bool(f.get("shared_gain")), reads=("shared_gain",),
        end_game=controls(T.BURROUGHS_DESERT)),
    AgendaSpec(
        id="seize_and_use",
        in_game_text="Take control of a territory from an opponent and use its benefit "
                     "immediately",
        end_game_text="You control Heinlein Plains",
        in_game=lambda st, s, f: bool(f.get("seize_used")), reads=("seize_used",),
        end_game=controls(T.HEINLEIN_PLAINS)),
    AgendaSpec(
        id="five_hub_steps",
        in_game_text="Move five spaces on the Colonist Hub track in a single turn",
        end_game_text="You control Lem Badlands",
        in_game=lambda st, s, f: f.get("hub_steps", 0) >= 5, reads=("hub_steps",),
        end_game=controls(T.LEM_BADLANDS)),
    AgendaSpec(
        id="rob_everyone", in_game_text="Steal from all opponents on a single turn",
        end_game_text="You possess a Polarity Device and a Multiverse Window",
        # and the number of players, which never changes
        in_game=rob_everyone, reads=("victims",),
        end_game=holds(Card.POLARITY_DEVICE, Card.MULTIVERSE_WINDOW)),
    AgendaSpec(
        id="two_ships_one_turn", in_game_text="Gain two ships in a single turn",
        end_game_text="You do not have any colonies on Van Vogt Mountains",
        in_game=lambda st, s, f: f.get("ships_gained", 0) >= 2, reads=("ships_gained",),
        end_game=absent(T.VAN_VOGT_MOUNTAINS)),
    AgendaSpec(
        id="artifact_eight",
        in_game_text="Dock four ships totaling exactly 8 points at the Alien Artifact",
        end_game_text="You do not have any colonies on Pohl Foothills",
        in_game=lambda st, s, f: artifact_eight(st, s), docked=0,
        end_game=absent(T.POHL_FOOTHILLS)),
    AgendaSpec(
        id="fill_solar",
        in_game_text="Use your ships to fill all unused docks at the Solar Converter",
        end_game_text="You do not have any colonies on Heinlein Plains",
        in_game=fill_solar, docked=1,
        end_game=absent(T.HEINLEIN_PLAINS)),
    AgendaSpec(
        id="repulsor_placed",
        in_game_text="Place the Repulsor Field on the planet without using Proxima Centauri "
                     "Scholars",
        end_game_text="You do not have any colonies on Lem Badlands",
        in_game=lambda st, s, f: bool(f.get("repulsor")), reads=("repulsor",),
        end_game=absent(T.LEM_BADLANDS)),
    AgendaSpec(
        id="five_facilities",
        in_game_text="Dock your ships at five different orbital facilities on the same turn",
        end_game_text="You do not have any colonies on Burroughs Desert",
        in_game=lambda st, s, f: len(f.get("facilities", [])) >= 5, reads=("facilities",),
        end_game=absent(T.BURROUGHS_DESERT)),
    AgendaSpec(
        id="fill_mine", in_game_text="Fill every dock at the Lunar Mine with your ships",
        end_game_text="You do not have any colonies on Herbert Valley",
        in_game=lambda st, s, f: fill_mine(st, s), docked=2,
        end_game=absent(T.HERBERT_VALLEY)),
    AgendaSpec(
        id="launch_and_restart",
        in_game_text="Launch a colony from the Colonist Hub and begin work on a new colony in "
                     "the same turn",
        end_game_text="You do not have any colonies on Asimov Crater",
        in_game=lambda st, s, f: bool(f.get("restarted")), reads=("restarted",),
        end_game=absent(T.ASIMOV_CRATER)),
    AgendaSpec(
        id="low_roll",
        in_game_text="Roll 10 or less with your fleet of five or more ships without using "
                     "Alien Tech",
        end_game_text="You do not have any colonies on Bradbury Plateau",
        in_game=lambda st, s, f: low_roll(rolled(f)), reads=("roll",),
        end_game=absent(T.BRADBURY_PLATEAU)),
)

AGENDAS: Final[dict[str, AgendaSpec]] = {spec.id: spec for spec in SPECS}
AGENDA_IDS: Final[tuple[str, ...]] = tuple(AGENDAS)
