"""One declaration per facility: every facility of ids.toml (the base game's [facilities]
and each Faction board's, ruling F5) has exactly one `FacilitySpec` in the facility table,
with the name, group and ports ids.toml gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine.facilities import FACILITIES, table
from pbem.engine.factions import FACTIONS
from pbem.engine.ids import Facility

from .rules_ids import ids_toml

REPO = Path(__file__).resolve().parents[2]


def test_each_facility_is_declared_once() -> None:
    """The table is the base game's specs, then one per Faction board (`table.join` refuses
    an id twice)."""
    assert [spec.id for spec in table.BASE] == [
        fid for fid in ids_toml()["facilities"] if fid != Facility.MAINTENANCE_BAY]
    assert list(FACILITIES.values())[:len(table.BASE)] == list(table.BASE)
    assert list(FACILITIES)[len(table.BASE):] == list(FACTIONS)
    with pytest.raises(ValueError, match="in the table already"):
        table.join([table.BASE[0]])


def test_the_base_facilities_have_the_numbers_ofids_toml() -> None:
    facilities = ids_toml()["facilities"]
    docking = {fid: entry for fid, entry in facilities.items()
               if fid != Facility.MAINTENANCE_BAY}
    # The Maintenance Bay is where ships go that cannot dock (ruling B9), not a facility
    # one docks at, so it has no spec.
    assert facilities[Facility.MAINTENANCE_BAY]["ports"] == "unlimited"
    assert Facility.MAINTENANCE_BAY not in FACILITIES
    assert sorted(docking) == sorted(spec.id for spec in table.BASE)
    for fid, entry in docking.items():
        spec = FACILITIES[fid]
        assert spec.name == entry["name"], fid
        if "tracks" in entry:  # the Colonist Hub: a track of ports for each colour
            assert (spec.shape, spec.group_size, spec.groups) == (
                "track", entry["ports_per_track"], (entry["tracks"],) * 3), fid
            continue
        size = {"single": 1, "six": 1, "pair": 2, "triple": 3, "run": 3}[entry["group"]]
        counts = entry["ports"] if size == 1 else entry["groups"]
        assert (spec.shape, spec.group_size, list(spec.groups)) == (
            entry["group"], size, counts), fid


def test_each_faction_board_has_its_one_port_facility() -> None:
    boards = ids_toml()["factions"]
    assert sorted(boards) == sorted(FACTIONS)
    for fid, entry in boards.items():
        spec = FACILITIES[fid]
        assert spec.name == entry["name"]
        assert (spec.shape, spec.group_size, spec.groups) == ("single", 1, (1, 1, 1))  # F5
        assert spec.value_free


def test_only_the_colonist_hub_and_the_homesteaders_union_launch() -> None:
    assert sorted(spec.id for spec in FACILITIES.values() if spec.launches) == [
        "colonist_hub", "homesteaders_union"]
