"""What pages and mail say about factions, Alien Tech cards, Agendas and game options.

Plain data, loaded once with the module. The faction and Agenda texts are copied from the
one-line paraphrases of shared/rules/ids.toml (never read at run time: only the repository
ships); the card texts paraphrase the rulebook's card powers. Names come from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.engine.ids import CARD_NAMES, FACTION_NAMES


@dataclass(frozen=True)
class FactionText:
    id: str
    name: str
    facility: str  # what docking at its board does (anyone, paying the owner 1 fuel)
    owner: str  # the owner's ability


@dataclass(frozen=True)
class AgendaText:
    id: str
    name: str
    in_game: str  # revealable once met during the game
    end_game: str  # scored at the end of the game if it holds


_FACTIONS = {  # ids.toml [factions]: facility, owner
    "corex_conglomerated": (
        "Pay 2 fuel: gain 1 ore per territory you control.",
        "At the start of your turn: 1 fuel, plus 1 per territory you control."),
    "dark_space_explorers": (
        "Pay 1 fuel: take the top card of the Alien Tech deck.",
        "Use up to two discard powers per turn."),
    "homesteaders_union": (
        "One Colonist Hub advance.",
        "May launch a colony from circle 6 as well as 7."),
    "new_gaia_engineers": (
        "With a ship on the Terraforming Station: re-roll it; a good roll rescues it "
        "(see the game's options).",
        "Other players' Terraforming Station payments go to the owner."),
    "proxima_centauri_scholars": (
        "Pay 1 fuel: move a field generator to another territory.",
        "Once per turn, 2 fuel: place or remove a field generator."),
    "scavenger_fleet": (
        "Use the Shipyard with two unequal ships this turn.",
        "New ships and the Relic Ship are rolled at once (usable this turn)."),
    "smugglers_alliance": (
        "Together with a Raiders' Outpost docking: take 4 resources AND 1 card.",
        "Any run bumps the Raiders' Outpost."),
    "uranian_syndicate": (
        "1 ore: move one of your colonies; 2 ore: move an opponent's.",
        "Use the bonus of one contested territory this turn."),
}
FACTIONS: dict[str, FactionText] = {
    fid: FactionText(fid, FACTION_NAMES[fid], *texts) for fid, texts in _FACTIONS.items()
}

CARD_EFFECTS: dict[str, str] = {
    "alien_city": "1 VP while you own it. No power.",
    "alien_monument": "1 VP while you own it. No power.",
    "booster_pod": "1 fuel: +1 to one unplaced ship. Discard: take one field generator off "
                   "the planet.",
    "data_crystal": "1 fuel per colony there: use a territory's bonus this turn. Discard: "
                    "place or move the Positron Field.",
    "gravity_manipulator": "2 fuel: −1 to one unplaced ship and +1 to another. Discard: "
                           "place or move the Repulsor Field.",
    "holographic_decoy": "Raiders cannot take your resources; the only card they may take "
                         "from you is this one.",
    "orbital_teleporter": "2 fuel: move one of your docked ships to another facility. "
                          "Discard: move any one colony to another territory.",
    "plasma_cannon": "1 fuel per ship: send other players' ships at one facility to the "
                     "Maintenance Bay. Discard: send one other player's ship to the stock.",
    "polarity_device": "1 fuel: turn one unplaced ship to its opposite face (7 − value). "
                       "Discard: swap two colonies on different territories.",
    "resource_cache": "After each roll: more odd ships +1 ore, more even +1 fuel, equal both "
                      "(then discard it).",
    "stasis_beam": "1 fuel: −1 to one unplaced ship. Discard: place or move the Isolation "
                   "Field.",
    "temporal_warper": "1 fuel: re-roll any of your unplaced ships. Discard: take a card "
                       "from the discard pile.",
    "astrogation_servo": "2 fuel: take a ship from the Maintenance Bay, roll it and use it "
                         "this turn. Discard: send every ship at one facility to the "
                         "Maintenance Bay.",
    "chameleon_cloak": "2 fuel: replace opponents' ships at one facility with yours of the "
                       "same values and use it. Discard: swap all colonies of two "
                       "territories.",
    "electrofabricator": "Once per turn, 2 fuel: gain 1 ore. Discard: gain 3 ore.",
    "experimental_ftl_drive": "2 fuel: set one unplaced ship to any value; 1 fuel goes on "
                              "the card, and at its third token the card is discarded.",
    "lunar_tunneler": "Once per turn, 1 fuel, right after docking at the Lunar Mine: +1 "
                      "ore. Discard: send every ship at the Lunar Mine to the Maintenance "
                      "Bay.",
    "multiverse_window": "You may hold 4 Agendas. Discard: reveal one of your face-down "
                         "Agendas; it scores without its condition.",
    "oscillation_capacitor": "Once per turn: use another card's fuel power again, paying "
                             "again. Discard: discard another player's Alien Tech card.",
    "solar_harvester": "Once per turn, free: 1 fuel per opponent ship at the Solar "
                       "Converter. Discard: every other player returns all their fuel.",
}

_AGENDAS = (  # ids.toml [agendas]: in-game half, end-game half
    ("fleet_of_seven", "gather a fleet of seven ships",
     "hold Resource Cache and Oscillation Capacitor"),
    ("five_in_a_row", "roll five sequential ships before any Alien Tech",
     "control Pohl Foothills"),
    ("three_colonies_one_turn", "land three colonies in one turn", "control Herbert Valley"),
    ("four_of_a_kind", "roll four of a kind before any Alien Tech",
     "control Van Vogt Mountains"),
    ("two_takeovers", "take two territories from other players in one turn",
     "hold Plasma Cannon and Electrofabricator"),
    ("six_ore", "gain six or more ore in one turn",
     "control a territory with a single colony"),
    ("four_unique_techs", "hold four Alien Tech cards no other player holds",
     "control Asimov Crater"),
    ("isolated_landing", "land a colony where the Isolation Field is",
     "control Bradbury Plateau"),
    ("bump_yourself", "bump your own ships from the Raiders' Outpost",
     "control a territory holding 3+ colonies of other players"),
    ("twelve_fuel", "gain twelve or more fuel in one turn",
     "control a territory with all three field generators"),
    ("two_techs_one_turn", "gain two or more Alien Tech cards in one turn",
     "hold Stasis Beam and Solar Harvester"),
    ("last_to_first", "go from lowest untied to highest untied score in one turn",
     "hold Booster Pod and Experimental FTL Drive"),
    ("shared_gain", "move colonies so that you and an opponent both gain VP",
     "control Burroughs Desert"),
    ("seize_and_use", "take a territory from an opponent and use its bonus at once",
     "control Heinlein Plains"),
    ("five_hub_steps", "move five spaces on the Colonist Hub in one turn",
     "control Lem Badlands"),
    ("rob_everyone", "steal from every opponent in one turn",
     "hold Polarity Device and Multiverse Window"),
    ("two_ships_one_turn", "gain two ships in one turn", "no colonies on Van Vogt Mountains"),
    ("artifact_eight", "dock four ships totalling exactly 8 at the Alien Artifact",
     "no colonies on Pohl Foothills"),
    ("fill_solar", "fill every unused dock of the Solar Converter with your ships",
     "no colonies on Heinlein Plains"),
    ("repulsor_placed", "place the Repulsor Field without Proxima Centauri Scholars",
     "no colonies on Lem Badlands"),
    ("five_facilities", "dock at five different orbital facilities in one turn",
     "no colonies on Burroughs Desert"),
    ("fill_mine", "fill every dock of the Lunar Mine with your ships",
     "no colonies on Herbert Valley"),
    ("launch_and_restart",
     "launch a colony from the Hub and start a new one in the same turn",
     "no colonies on Asimov Crater"),
    ("low_roll", "roll 10 or less with five or more ships before any Alien Tech",
     "no colonies on Bradbury Plateau"),
)


def _title(aid: str) -> str:
    small = {"of", "a", "and", "to", "in"}
    words = aid.split("_")
    return " ".join(w if i and w in small else w.capitalize() for i, w in enumerate(words))


AGENDAS: dict[str, AgendaText] = {
    aid: AgendaText(aid, _title(aid), in_game[0].upper() + in_game[1:],
                    end_game[0].upper() + end_game[1:])
    for aid, in_game, end_game in _AGENDAS
}

RESCUE_WORDS = {  # the long readings are on the create form; summaries use these
    "high": "New Gaia rescue on 4–6",
    "low": "New Gaia rescue on 1–3",
}
TIEBREAK_WORDS = {
    "agendas": "most revealed Agendas",
    "cards": "most Alien Tech cards",
    "ore": "most ore",
    "fuel": "most fuel",
}


def faction_name(fid: str | None) -> str:
    if not fid:
        return "no faction yet"
    return FACTION_NAMES.get(fid, fid.replace("_", " ").title())


def card_name(cid: str) -> str:
    return CARD_NAMES.get(cid, cid.replace("_", " ").title())


def agenda(aid: str) -> AgendaText:
    return AGENDAS.get(aid) or AgendaText(aid, _title(aid), "", "")


def options_words(options: dict[str, Any], hours: int | None = None) -> str:
    """The game's options in words, e.g. "Factions on, New Gaia rescue on 4–6, 48 hours
    per move"."""
    if options.get("factions"):
        rescue = RESCUE_WORDS.get(str(options.get("new_gaia_rescue", "high")), "")
        parts = ["Factions on", rescue] if rescue else ["Factions on"]
    else:
        parts = ["base game (no Factions)"]
    if hours:
        parts.append(f"{hours} hours per move")
    return ", ".join(parts)
