"""The notation help page's words (``/help/notation``): how to write each move, with examples,
for a player typing a move on the turn page, in a reply by mail or through the API.

The examples are docs/notation.md's own (a test checks that each is there and that the engine
reads each one), so the page and the reference never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Form:
    """One kind of move: what it does, how it is written, and examples to copy."""

    what: str
    text: str
    examples: tuple[str, ...]


@dataclass(frozen=True)
class Section:
    title: str
    forms: tuple[Form, ...]
    notes: tuple[str, ...] = ()


GENERAL = (
    "One move a line. Words are separated by spaces; case does not matter.",
    "Ships are written by the value they show (1 to 6): the game picks which of your ships "
    "showing that value to use. The Relic Ship has an r after its value: 6r.",
    "Facilities, territories and cards take their name with underscores (lunar_mine) or a "
    "short name (mine, lem, cannon).",
    "Players are named by colour (red, green, blue, yellow, purple) or its first letter.",
)

BASE = Section("Your turn", (
    Form("Dock ships at a facility", "dock VALUES FACILITY",
         ("dock 4 lunar_mine", "dock 3 3 shipyard", "dock 5 5 5 constructor",
          "dock 2 3 4 raiders", "dock 6 terraforming", "dock 1 2 hub")),
    Form("Dock with the Relic Ship", "an r on its value",
         ("dock 6r terraforming_station", "dock 3 3r market")),
    Form("Dock at the Colonist Hub and launch at once", "dock VALUES colonist_hub launch",
         ("dock 2 3 hub launch",)),
    Form("Trade at the Orbital Market: RATE fuel for 1 ore", "trade RATE",
         ("trade 3", "trade 1")),
    Form("Cycle the Alien Artifact's cards", "cycle", ("cycle",)),
    Form("Claim a displayed card (ships there total 8 or more)", "claim CARD",
         ("claim plasma_cannon", "claim cannon")),
    Form("Launch your colony from circle 7 (1 fuel + 1 ore)", "launch", ("launch",)),
    Form("Land the colony being placed", "land TERRITORY",
         ("land lem_badlands", "land vanvogt")),
    Form("Raid: take one fuel or ore (again, up to 4 in all)", "steal PLAYER fuel|ore",
         ("steal green fuel", "steal b ore")),
    Form("Raid: take a card instead", "steal PLAYER CARD", ("steal blue plasma_cannon",)),
    Form("Raid: take nothing more", "end raid", ("end raid",)),
    Form("Buy the Relic Ship (Burroughs Desert)", "buy relic", ("buy relic",)),
    Form("End your turn", "end", ("end",)),
    Form("End your turn, returning tokens down to 8", "end discard N fuel M ore",
         ("end discard 1 fuel 2 ore", "end discard 3 ore")),
), notes=(
    "After a Raiders' Outpost docking the game waits for steal lines, one token each, until "
    "4 are taken, a card is taken or you write end raid.",
    "After a Colony Constructor or Terraforming Station docking, or a launch, the game waits "
    "for land TERRITORY.",
))

CARDS = Section("Alien Tech cards: use CARD … or discard CARD …", (
    Form("Booster Pod: +1 to a ship (1 fuel)", "use booster_pod SHIP", ("use booster_pod 3",)),
    Form("Stasis Beam: −1 to a ship (1 fuel)", "use stasis_beam SHIP", ("use stasis_beam 2",)),
    Form("Polarity Device: a ship becomes 7 − its value (1 fuel)", "use polarity_device SHIP",
         ("use polarity_device 1",)),
    Form("Gravity Manipulator: one ship −1, another +1 (2 fuel)",
         "use gravity_manipulator DOWN UP", ("use gravity_manipulator 2 5",)),
    Form("Data Crystal: borrow a territory's bonus", "use data_crystal TERRITORY",
         ("use data_crystal heinlein_plains",)),
    Form("Temporal Warper: re-roll ships (1 fuel)", "use temporal_warper SHIP…",
         ("use temporal_warper 1 2",)),
    Form("Plasma Cannon: send other players' ships away (1 fuel a ship)",
         "use plasma_cannon FACILITY PLAYER SHIP [PLAYER SHIP…]",
         ("use plasma_cannon lunar_mine red 4", "use plasma_cannon shipyard red 3 red 3")),
    Form("Orbital Teleporter: move a docked ship (2 fuel)",
         "use orbital_teleporter FROM SHIP TO [SHIP…]",
         ("use orbital_teleporter lunar_mine 6 alien_artifact",)),
    Form("Chameleon Cloak: replace other players' ships with yours (2 fuel)",
         "use chameleon_cloak FACILITY PLAYER SHIP… [with SHIPr] [launch]",
         ("use cloak shipyard green 3 green 3 blue 5 blue 5",
          "use cloak mine green 5 with 5r")),
    Form("A card's discard power", "discard CARD …",
         ("discard booster_pod isolation_field", "discard stasis_beam lem_badlands",
          "discard temporal_warper alien_city", "discard plasma_cannon yellow 6 lunar_mine",
          "discard polarity_device red herbert_valley blue lem_badlands")),
))

FACTIONS = Section("Factions", (
    Form("Choose a Faction board in the draft", "choose FACTION",
         ("choose corex", "choose smugglers_alliance")),
    Form("Dock at a Faction board's facility (1 fuel to its owner)", "dock VALUE FACTION",
         ("dock 4 corex", "dock 2 dark_space", "dock 5 homesteaders launch")),
    Form("Smuggler's Alliance with a Raiders' Outpost run", "smuggle RUN SHIP",
         ("smuggle 2 3 4 5",)),
    Form("After Proxima Centauri Scholars: move a field", "move FIELD TERRITORY",
         ("move repulsor pohl",)),
    Form("Proxima's owner: place or remove a field", "scholars place|remove FIELD …",
         ("scholars remove positron",)),
    Form("After Uranian Syndicate: move a colony", "move COLOUR FROM TO",
         ("move yellow herbert pohl",)),
    Form("Uranian's owner: use a contested bonus", "contest TERRITORY", ("contest lem",)),
    Form("Agendas over your limit: discard one", "discard agenda N", ("discard agenda 1",)),
))

SECTIONS = (BASE, CARDS, FACTIONS)
REPLY_WORDS = (
    ("undo", "take back your last step this turn"),
    ("status", "your summary again"),
    ("help", "every move you can write now, grouped by kind"),
    ("resign", "alone on its line: leave the game; the computer plays your seat"),
)


def examples() -> list[str]:
    """Every example the page shows, in page order."""
    return [example for section in SECTIONS for form in section.forms
            for example in form.examples]
