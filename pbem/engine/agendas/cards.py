"""The 24 Agenda cards (ids.toml [agendas]; printed wording from the Factions rulebook).

Each card has an in-game half (revealable when met, ruling A3) and an end-game half (scored
automatically at the end of the game when it holds, ruling A4). Either half gives 1 VP (A2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class AgendaCard:
    id: str
    in_game: str  # printed wording, left half
    end_game: str  # printed wording, right half


_TABLE: Final[tuple[tuple[str, str, str], ...]] = (
    ("fleet_of_seven", "Gather your fleet of seven ships",
     "You possess a Resource Cache and an Oscillation Capacitor"),
    ("five_in_a_row", "Roll five sequential ships without using Alien Tech",
     "You control Pohl Foothills"),
    ("three_colonies_one_turn", "Land three colonies in a single turn",
     "You control Herbert Valley"),
    ("four_of_a_kind", "Roll four-of-a-kind without using Alien Tech",
     "You control Van Vogt Mountains"),
    ("two_takeovers",
     "Take control of two territories belonging to other players in a single turn",
     "You possess a Plasma Cannon and an Electrofabricator"),
    ("six_ore", "Gain six or more ore in a single turn",
     "You control a territory with a single colony on it"),
    ("four_unique_techs", "Possess four Alien Tech cards that no other player possesses",
     "You control Asimov Crater"),
    ("isolated_landing", "Land a colony on a territory that already has the Isolation Field on it",
     "You control Bradbury Plateau"),
    ("bump_yourself", "Bump your own ships from the Raiders' Outpost",
     "You control a territory containing three or more colonies belonging to other players"),
    ("twelve_fuel", "Gain twelve or more fuel in a single turn",
     "You control a territory with three field generators on it"),
    ("two_techs_one_turn", "Gain two or more Alien Tech cards in a single turn",
     "You possess a Stasis Beam and a Solar Harvester"),
    ("last_to_first",
     "Go from the lowest untied score to the highest untied score in a single turn",
     "You possess a Booster Pod and an Experimental FTL Drive"),
    ("shared_gain", "Move colonies so that you and an opponent both gain VPs",
     "You control Burroughs Desert"),
    ("seize_and_use",
     "Take control of a territory from an opponent and use its benefit immediately",
     "You control Heinlein Plains"),
    ("five_hub_steps", "Move five spaces on the Colonist Hub track in a single turn",
     "You control Lem Badlands"),
    ("rob_everyone", "Steal from all opponents on a single turn",
     "You possess a Polarity Device and a Multiverse Window"),
    ("two_ships_one_turn", "Gain two ships in a single turn",
     "You do not have any colonies on Van Vogt Mountains"),
    ("artifact_eight", "Dock four ships totaling exactly 8 points at the Alien Artifact",
     "You do not have any colonies on Pohl Foothills"),
    ("fill_solar", "Use your ships to fill all unused docks at the Solar Converter",
     "You do not have any colonies on Heinlein Plains"),
    ("repulsor_placed",
     "Place the Repulsor Field on the planet without using Proxima Centauri Scholars",
     "You do not have any colonies on Lem Badlands"),
    ("five_facilities", "Dock your ships at five different orbital facilities on the same turn",
     "You do not have any colonies on Burroughs Desert"),
    ("fill_mine", "Fill every dock at the Lunar Mine with your ships",
     "You do not have any colonies on Herbert Valley"),
    ("launch_and_restart",
     "Launch a colony from the Colonist Hub and begin work on a new colony in the same turn",
     "You do not have any colonies on Asimov Crater"),
    ("low_roll", "Roll 10 or less with your fleet of five or more ships without using Alien Tech",
     "You do not have any colonies on Bradbury Plateau"),
)

AGENDAS: Final[dict[str, AgendaCard]] = {row[0]: AgendaCard(*row) for row in _TABLE}
AGENDA_IDS: Final[tuple[str, ...]] = tuple(AGENDAS)
