"""Canonical identifiers and numbers of the game (shared/rules/ids.toml), as Python data.

Every id stored, sent or typed anywhere in pbem is one of these strings. StrEnum members are
plain strings, so state and actions serialise to JSON without conversion.
"""

from __future__ import annotations

from enum import StrEnum


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
    ALIEN_CITY = "alien_city"
    ALIEN_MONUMENT = "alien_monument"
    BOOSTER_POD = "booster_pod"
    DATA_CRYSTAL = "data_crystal"
    GRAVITY_MANIPULATOR = "gravity_manipulator"
    HOLOGRAPHIC_DECOY = "holographic_decoy"
    ORBITAL_TELEPORTER = "orbital_teleporter"
    PLASMA_CANNON = "plasma_cannon"
    POLARITY_DEVICE = "polarity_device"
    RESOURCE_CACHE = "resource_cache"
    STASIS_BEAM = "stasis_beam"
    TEMPORAL_WARPER = "temporal_warper"
    ASTROGATION_SERVO = "astrogation_servo"
    CHAMELEON_CLOAK = "chameleon_cloak"
    ELECTROFABRICATOR = "electrofabricator"
    EXPERIMENTAL_FTL_DRIVE = "experimental_ftl_drive"
    LUNAR_TUNNELER = "lunar_tunneler"
    MULTIVERSE_WINDOW = "multiverse_window"
    OSCILLATION_CAPACITOR = "oscillation_capacitor"
    SOLAR_HARVESTER = "solar_harvester"


class Faction(StrEnum):
    COREX_CONGLOMERATED = "corex_conglomerated"
    DARK_SPACE_EXPLORERS = "dark_space_explorers"
    HOMESTEADERS_UNION = "homesteaders_union"
    NEW_GAIA_ENGINEERS = "new_gaia_engineers"
    PROXIMA_CENTAURI_SCHOLARS = "proxima_centauri_scholars"
    SCAVENGER_FLEET = "scavenger_fleet"
    SMUGGLERS_ALLIANCE = "smugglers_alliance"
    URANIAN_SYNDICATE = "uranian_syndicate"


COLOURS = ("red", "green", "blue", "yellow", "purple")  # ruling C1: colours follow seat order
COLOUR_LETTERS = ("R", "G", "B", "Y", "P")  # ruling B21: never colour alone

FACILITY_NAMES: dict[str, str] = {
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
FACTION_NAMES: dict[str, str] = {
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

TERRITORY_NAMES: dict[str, str] = {
    "asimov_crater": "Asimov Crater",
    "bradbury_plateau": "Bradbury Plateau",
    "burroughs_desert": "Burroughs Desert",
    "heinlein_plains": "Heinlein Plains",
    "herbert_valley": "Herbert Valley",
    "lem_badlands": "Lem Badlands",
    "pohl_foothills": "Pohl Foothills",
    "van_vogt_mountains": "Van Vogt Mountains",
}

TERRITORY_BONUSES: dict[str, str] = {
    "asimov_crater": "+1 Colonist Hub advance once per turn after 2+ ships docked there",
    "bradbury_plateau": "Colony Constructor costs 2 ore",
    "burroughs_desert": "may buy the Relic Ship for 1 fuel + 1 ore",
    "heinlein_plains": "Orbital Market trades 1 fuel : 1 ore",
    "herbert_valley": "Shipyard costs 1 fuel and 1 ore less",
    "lem_badlands": "+1 fuel per ship at the Solar Converter",
    "pohl_foothills": "each Alien Tech use costs 1 fuel less",
    "van_vogt_mountains": "first Lunar Mine ship each turn may be any value",
}

FIELD_NAMES: dict[str, str] = {
    "isolation_field": "Isolation Field",
    "positron_field": "Positron Field",
    "repulsor_field": "Repulsor Field",
}

CARD_NAMES: dict[str, str] = {
    "alien_city": "Alien City",
    "alien_monument": "Alien Monument",
    "booster_pod": "Booster Pod",
    "data_crystal": "Data Crystal",
    "gravity_manipulator": "Gravity Manipulator",
    "holographic_decoy": "Holographic Decoy",
    "orbital_teleporter": "Orbital Teleporter",
    "plasma_cannon": "Plasma Cannon",
    "polarity_device": "Polarity Device",
    "resource_cache": "Resource Cache",
    "stasis_beam": "Stasis Beam",
    "temporal_warper": "Temporal Warper",
    "astrogation_servo": "Astrogation Servo",
    "chameleon_cloak": "Chameleon Cloak",
    "electrofabricator": "Electrofabricator",
    "experimental_ftl_drive": "Experimental FTL Drive",
    "lunar_tunneler": "Lunar Tunneler",
    "multiverse_window": "Multiverse Window",
    "oscillation_capacitor": "Oscillation Capacitor",
    "solar_harvester": "Solar Harvester",
}

# ruling B4: the base deck; the Factions option adds one of each Factions card.
BASE_DECK: dict[str, int] = {
    "alien_city": 1,
    "alien_monument": 1,
    "booster_pod": 2,
    "data_crystal": 2,
    "gravity_manipulator": 2,
    "holographic_decoy": 2,
    "orbital_teleporter": 2,
    "plasma_cannon": 2,
    "polarity_device": 2,
    "resource_cache": 2,
    "stasis_beam": 2,
    "temporal_warper": 2,
}
FACTIONS_DECK: dict[str, int] = {
    "astrogation_servo": 1,
    "chameleon_cloak": 1,
    "electrofabricator": 1,
    "experimental_ftl_drive": 1,
    "lunar_tunneler": 1,
    "multiverse_window": 1,
    "oscillation_capacitor": 1,
    "solar_harvester": 1,
}

# Cards worth a victory point while owned (base-game.md §7.1).
VP_CARDS = frozenset({"alien_city", "alien_monument"})

# [players] of ids.toml
MIN_PLAYERS = 2
MAX_PLAYERS_BASE = 4
MAX_PLAYERS = 5
COLONIES = {2: 8, 3: 7, 4: 6, 5: 6}
START_RESOURCES = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1), 4: (2, 1)}  # ruling F1
SHIPS_START = 3
SHIPS_MAX = 6
SHIPS_MIN = 3
RESOURCE_LIMIT = 8
DISPLAY_SIZE = 3
TECH_DEALT = 1

# [costs] of ids.toml
SHIPYARD_COST = {4: (1, 1), 5: (2, 2), 6: (3, 3)}
CONSTRUCTOR_ORE = 3
CONSTRUCTOR_ORE_BRADBURY = 2
TERRAFORMING_COST = (1, 1)
HUB_LAUNCH_COST = (1, 1)
RELIC_SHIP_COST = (1, 1)
ARTIFACT_CLAIM_TOTAL = 8
RAID_RESOURCES = 4
HUB_CIRCLES = 7
HUB_TRACKS = 4
HUB_PORTS_PER_TRACK = 3

HUB_CIRCLES_LAUNCH_EARLY = 6  # Homesteader's Union owner (ruling F9)
FACTION_ACCESS_FEE = 1  # fuel, to the owner (ruling F5)
OPTION_VALUES: dict[str, tuple[object, ...]] = {  # ids.toml [options]
    "factions": (True, False),
    "new_gaia_rescue": ("high", "low"),
}

RELIC = "relic"  # the Relic Ship's ship id
