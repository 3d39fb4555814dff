"""What pages and mail say about factions, Alien Tech cards, Agendas and game options.

Plain data, loaded once with the module. The Agenda texts are copied from the one-line
paraphrases of shared/rules/ids.toml (never read at run time: only the repository ships);
the faction and card texts (paraphrases of ids.toml and of the rulebook's card powers) and
all names come from the engine's specs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.clock import TimeBank
from pbem.engine.alien_tech.catalog import SPECS as CARD_SPECS
from pbem.engine.factions.catalog import SPECS as FACTION_SPECS
from pbem.engine.ids import CARD_NAMES, FACTION_NAMES
from pbem.words.when import clock_words


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


FACTIONS: dict[str, FactionText] = {  # from the boards' specs
    spec.id: FactionText(spec.id, spec.name, spec.facility.effect, spec.owner)
    for spec in FACTION_SPECS
}

CARD_EFFECTS: dict[str, str] = {card.id: card.effect for card in CARD_SPECS}  # their specs

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


def options_words(options: dict[str, Any], hours: int | None = None,
                  bank: TimeBank | None = None) -> str:
    """The game's options in words, e.g. "Factions on, New Gaia rescue on 4–6, 48 hours
    per move" (or its time bank, ``bank``)."""
    if options.get("factions"):
        rescue = RESCUE_WORDS.get(str(options.get("new_gaia_rescue", "high")), "")
        parts = ["Factions on", rescue] if rescue else ["Factions on"]
    else:
        parts = ["base game (no Factions)"]
    clock = clock_words(hours, bank)
    if clock:
        parts.append(clock)
    return ", ".join(parts)
