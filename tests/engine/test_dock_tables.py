"""The dockings' tables (`pbem.engine.menu.shapes`) share one copy of each block and docking:
a web worker meets many hands of ships over its life, and its memory stays small only if
hands that allow the same choices at a facility hold the same block, in pure Python and in
the compiled build alike (`benchmarks/compiled.py test` runs this file too)."""

from __future__ import annotations

from pbem.engine.ids import Facility
from pbem.engine.menu.shapes import Block, facility_blocks


def _by_facility(seat: int, values: tuple[int, ...]) -> dict[str, Block]:
    return {block.facility: block for block in facility_blocks(seat, values, None, False)}


def test_hands_with_the_same_choices_at_a_facility_share_its_block() -> None:
    # a 2 and a 5, or a 2, a 2 and a 5: the Lunar Mine takes one ship either way
    few, more = _by_facility(0, (2, 5)), _by_facility(0, (2, 2, 5))
    assert more[Facility.LUNAR_MINE] is few[Facility.LUNAR_MINE]
    assert more[Facility.SOLAR_CONVERTER] is few[Facility.SOLAR_CONVERTER]
    # the pair of 2s makes the Shipyard's rows differ
    assert Facility.SHIPYARD in more and Facility.SHIPYARD not in few


def test_a_seat_has_one_copy_of_each_docking_across_facilities_tables() -> None:
    mine = _by_facility(1, (3, 4))[Facility.LUNAR_MINE]
    again = _by_facility(1, (3, 4, 6))[Facility.LUNAR_MINE]
    docks = {dock for row in mine.rows for dock in row[1]}
    assert {dock.values for dock in docks} == {(3,), (4,)}
    assert all(dock.seat == 1 for dock in docks)
    later = {dock.values: dock for row in again.rows for dock in row[1]}
    assert all(later[dock.values] is dock for dock in docks)


def test_a_hand_asked_again_gets_the_same_table() -> None:
    assert facility_blocks(2, (1, 1, 6), None, False) is facility_blocks(2, (1, 1, 6), None, False)
