"""Canonical identifiers and numbers of the game (shared/rules/ids.toml), as Python data.

Every id stored, sent or typed anywhere in pbem is one of these strings (the Alien Tech
cards' are declared by their CardSpecs, see CARD_NAMES). StrEnum members are plain strings,
so state and actions serialise to JSON without conversion.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Facility(StrEnum):
    SOLAR_CONVERTER = "solar_converter"
    LUNAR_MINE = "lunar_mine"
    ORBITAL_MARKET = "orbital_market"
    SHIPYARD = "shipyard"
    MAINTENANCE_BAY = "maintenance_bay"
    ALIEN_ARTIFACT = "alien_artifact"
    COLONIST_HUB = "colonist_hub"
    COLONY_CONSTRUCTOR = "colony_constructor"
    TERRAFORMING_STATION = "terraforming_station"
    RAIDERS_OUTPOST = "raiders_outpost"


class Territory(StrEnum):
    ASIMOV_CRATER = "asimov_crater"
    BRADBURY_PLATEAU = "bradbury_plateau"
    BURROUGHS_DESERT = "burroughs_desert"
    HEINLEIN_PLAINS = "heinlein_plains"
    HERBERT_VALLEY = "herbert_valley"
    LEM_BADLANDS = "lem_badlands"
    POHL_FOOTHILLS = "pohl_foothills"
    VAN_VOGT_MOUNTAINS = "van_vogt_mountains"


class Field(StrEnum):
    ISOLATION = "isolation_field"
    POSITRON = "positron_field"
    REPULSOR = "repulsor_field"


class Card(StrEnum):
    """The cards that rule code outside their own module names (the Agendas' conditions, the
    Raiders' Outpost). A new card needs no member here: its id, name, copies and powers are
    its module's `CardSpec` (pbem/engine/alien_tech/catalog.py lists them)."""

    BOOSTER_POD = "booster_pod"
    ELECTROFABRICATOR = "electrofabricator"
    EXPERIMENTAL_FTL_DRIVE = "experimental_ftl_drive"
    HOLOGRAPHIC_DECOY = "holographic_decoy"
    MULTIVERSE_WINDOW = "multiverse_window"
    OSCILLATION_CAPACITOR = "oscillation_capacitor"
    PLASMA_CANNON = "plasma_cannon"
    POLARITY_DEVICE = "polarity_device"
    RESOURCE_CACHE = "resource_cache"
    SOLAR_HARVESTER = "solar_harvester"
    STASIS_BEAM = "stasis_beam"


class Faction(StrEnum):
    COREX_CONGLOMERATED = "corex_conglomerated"
    DARK_SPACE_EXPLORERS = "dark_space_explorers"
    HOMESTEADERS_UNION = "homesteaders_union"
    NEW_GAIA_ENGINEERS = "new_gaia_engineers"
    PROXIMA_CENTAURI_SCHOLARS = "proxima_centauri_scholars"
    SCAVENGER_FLEET = "scavenger_fleet"
    SMUGGLERS_ALLIANCE = "smugglers_alliance"
    URANIAN_SYNDICATE = "uranian_syndicate"


COLOURS: Final = ("red", "green", "blue", "yellow", "purple")  # ruling C1: colours in seat order
COLOUR_LETTERS: Final = ("R", "G", "B", "Y", "P")  # ruling B21: never colour alone

FACILITY_NAMES: Final[dict[str, str]] = {
    "solar_converter": "Solar Converter",
    "lunar_mine": "Lunar Mine",
    "orbital_market": "Orbital Market",
    "shipyard": "Shipyard",
    "maintenance_bay": "Maintenance Bay",
    "alien_artifact": "Alien Artifact",
    "colonist_hub": "Colonist Hub",
    "colony_constructor": "Colony Constructor",
    "terraforming_station": "Terraforming Station",
    "raiders_outpost": "Raiders' Outpost",
}

# ids.toml [factions]. Each chosen board is also a one-port facility whose id is the
# faction's id (ruling F5), so docking, the Maintenance Bay gather and notation see it.
FACTION_NAMES: Final[dict[str, str]] = {
    "corex_conglomerated": "Corex Conglomerated",
    "dark_space_explorers": "Dark Space Explorers",
    "homesteaders_union": "Homesteader's Union",
    "new_gaia_engineers": "New Gaia Engineers",
    "proxima_centauri_scholars": "Proxima Centauri Scholars",
    "scavenger_fleet": "Scavenger Fleet",
    "smugglers_alliance": "Smuggler's Alliance",
    "uranian_syndicate": "Uranian Syndicate",
}
FACILITY_NAMES.update(FACTION_NAMES)

TERRITORY_NAMES: Final[dict[str, str]] = {
    "asimov_crater": "Asimov Crater",
    "bradbury_plateau": "Bradbury Plateau",
    "burroughs_desert": "Burroughs Desert",
    "heinlein_plains": "Heinlein Plains",
    "herbert_valley": "Herbert Valley",
    "lem_badlands": "Lem Badlands",
    "pohl_foothills": "Pohl Foothills",
    "van_vogt_mountains": "Van Vogt Mountains",
}

TERRITORY_BONUSES: Final[dict[str, str]] = {
    "asimov_crater": "+1 Colonist Hub advance once per turn after 2+ ships docked there",
    "bradbury_plateau": "Colony Constructor costs 2 ore",
    "burroughs_desert": "may buy the Relic Ship for 1 fuel + 1 ore",
    "heinlein_plains": "Orbital Market trades 1 fuel : 1 ore",
    "herbert_valley": "Shipyard costs 1 fuel and 1 ore less",
    "lem_badlands": "+1 fuel per ship at the Solar Converter",
    "pohl_foothills": "each Alien Tech use costs 1 fuel less",
    "van_vogt_mountains": "first Lunar Mine ship each turn may be any value",
}

FIELD_NAMES: Final[dict[str, str]] = {
    "isolation_field": "Isolation Field",
    "positron_field": "Positron Field",
    "repulsor_field": "Repulsor Field",
}

# The Alien Tech cards (ids.toml [tech]) are declared once each, by their modules' CardSpecs;
# the one catalog step (pbem.engine.catalog.install, run when pbem.engine is imported) fills
# these tables from them, for the rule code below the cards (facilities, scoring, set-up),
# which cannot import the card catalog.
CARD_NAMES: Final[dict[str, str]] = {}  # id -> printed name, in ids.toml order
BASE_DECK: Final[dict[str, int]] = {}  # ruling B4: id -> copies in the base deck
FACTIONS_DECK: Final[dict[str, int]] = {}  # the Factions cards the Factions option adds
VP_CARDS: Final[set[str]] = set()  # cards worth victory points while owned (base-game.md §7.1)

# [players] of ids.toml
MIN_PLAYERS: Final = 2
MAX_PLAYERS_BASE: Final = 4
MAX_PLAYERS: Final = 5
COLONIES: Final = {2: 8, 3: 7, 4: 6, 5: 6}
START_RESOURCES: Final = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1), 4: (2, 1)}  # ruling F1
SHIPS_START: Final = 3
SHIPS_MAX: Final = 6
SHIPS_MIN: Final = 3
RESOURCE_LIMIT: Final = 8
DISPLAY_SIZE: Final = 3
TECH_DEALT: Final = 1

# [costs] of ids.toml
SHIPYARD_COST: Final = {4: (1, 1), 5: (2, 2), 6: (3, 3)}
CONSTRUCTOR_ORE: Final = 3
CONSTRUCTOR_ORE_BRADBURY: Final = 2
TERRAFORMING_COST: Final = (1, 1)
HUB_LAUNCH_COST: Final = (1, 1)
RELIC_SHIP_COST: Final = (1, 1)
ARTIFACT_CLAIM_TOTAL: Final = 8
RAID_RESOURCES: Final = 4
HUB_CIRCLES: Final = 7
HUB_TRACKS: Final = 4
HUB_PORTS_PER_TRACK: Final = 3

HUB_CIRCLES_LAUNCH_EARLY: Final = 6  # Homesteader's Union owner (ruling F9)
FACTION_ACCESS_FEE: Final = 1  # fuel, to the owner (ruling F5)
OPTION_VALUES: Final[dict[str, tuple[object, ...]]] = {  # ids.toml [options]
    "factions": (True, False),
    "new_gaia_rescue": ("high", "low"),
}

RELIC: Final = "relic"  # the Relic Ship's ship id
