"""The facility table: every orbital facility's spec, by id, in menu order.

The base game's facilities are listed here; the Faction boards' facilities (ruling F5) join
once, from `pbem.engine.factions`, which declares them: their modules use the docking
procedure by facility id (the Smuggler's Alliance docks at the Raiders' Outpost), so this
package cannot import them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from . import (
    alien_artifact,
    colonist_hub,
    colony_constructor,
    lunar_mine,
    orbital_market,
    raiders_outpost,
    shipyard,
    solar_converter,
    terraforming_station,
)
from .spec import FacilitySpec

BASE: Final[tuple[FacilitySpec, ...]] = (
    solar_converter.SPEC, lunar_mine.SPEC, orbital_market.SPEC, shipyard.SPEC,
    alien_artifact.SPEC, colonist_hub.SPEC, colony_constructor.SPEC,
    terraforming_station.SPEC, raiders_outpost.SPEC,
)

FACILITIES: Final[dict[str, FacilitySpec]] = {spec.id: spec for spec in BASE}


def join(specs: Iterable[FacilitySpec]) -> None:
    """Add the Faction boards' facilities after the base game's (once per id)."""
    for spec in specs:
        if spec.id in FACILITIES:
            raise ValueError(f"a facility called '{spec.id}' is in the table already")
        FACILITIES[spec.id] = spec
