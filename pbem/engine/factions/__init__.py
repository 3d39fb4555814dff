"""Faction boards (Factions expansion): one module per board, each with its facility (ruling
F5: one port, any value, 1 fuel access fee to the owner) and its owner's ability, plus the
draft (ruling F3).

Each board module ends in its one declaration, `FACTION = FactionSpec(...)` (`spec.py`):
id, name, aliases, its facility (texts and hooks), its owner's ability, the actions and the
follow-up decision it adds, the bot's view of it. `catalog.SPECS` lists the boards; the
tables below are derived from it. `catalog` also makes each board's facility spec, which the
one catalog step (`pbem.engine.catalog`) joins to the facility table
(`facilities.FACILITIES`), so docking, the must-dock rule (B9) and `legal_actions` see it;
only chosen boards are in the game. `rules` merges `HANDLERS`,
`PENDING` and `candidates` with its own.
"""

from __future__ import annotations

from . import common
from .catalog import FACTIONS, HANDLERS, PENDING, SPECS, candidates, faction_id
from .spec import FactionSpec

__all__ = ["FACTIONS", "HANDLERS", "PENDING", "SPECS", "FactionSpec", "candidates", "common",
           "faction_id"]
