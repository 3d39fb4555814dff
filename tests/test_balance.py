"""The balance runner: interval maths, tallies, a tiny run, the report and the command."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.balance import (
    SEED_BASE,
    BalanceReport,
    GameRecord,
    Tally,
    balance,
    markdown,
    play_one,
    run_balance,
    svg_chart,
    wilson,
    write_report,
)
from pbem.engine.ids import FACTION_NAMES


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-5) and high == pytest.approx(0.59617, abs=1e-5)
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0) and high == pytest.approx(0.27753, abs=1e-5)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.72247, abs=1e-5) and high == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_is_symmetric_holds_the_rate_and_narrows() -> None:
    for wins, games in ((3, 17), (120, 400), (7.5, 40)):
        low, high = wilson(wins, games)
        mirror_low, mirror_high = wilson(games - wins, games)
        assert low == pytest.approx(1 - mirror_high) and high == pytest.approx(1 - mirror_low)
        assert low < wins / games < high
    assert wilson(250, 1000)[1] - wilson(250, 1000)[0] < wilson(25, 100)[1] - wilson(25, 100)[0]


def test_a_shared_win_is_split_and_the_seat_rates_add_up_to_one() -> None:
    report = BalanceReport(3, 2, True, "greedy", [Tally(), Tally()])
    report.add(GameRecord((0,), ("corex_conglomerated", "scavenger_fleet"), (9, 7), 12, True))
    report.add(GameRecord((0, 1), ("scavenger_fleet", "corex_conglomerated"), (8, 8), 14, True))
    report.add(GameRecord((), (), (), 99, False))
    assert report.unfinished == 1 and report.rounds == [12, 14] and report.mean_rounds == 13
    assert [t.wins for t in report.by_seat] == [1.5, 0.5]
    assert sum(t.rate for t in report.by_seat) == pytest.approx(1.0)
    corex = report.by_faction["corex_conglomerated"]
    assert (corex.games, corex.wins, corex.mean_points) == (2, 1.5, 8.5)


def test_a_tiny_run_is_the_same_on_one_process_or_two() -> None:
    one = run_balance(4, 2, False, "greedy", processes=1)
    two = run_balance(4, 2, False, "greedy", processes=2)
    assert one == two
    assert sum(t.games for t in one.by_seat) == 8 and one.unfinished == 0
    assert sum(t.wins for t in one.by_seat) == pytest.approx(4)
    assert one.by_faction == {} and all(r > 0 for r in one.rounds)


def test_a_factions_run_tallies_every_chosen_board_and_counts_progress() -> None:
    seen: list[GameRecord] = []
    report = run_balance(3, 3, True, "easy", processes=1, on_game=seen.append)
    assert len(seen) == 3 and all(r.finished for r in seen)
    assert sum(t.games for t in report.by_faction.values()) == 9
    assert seen[0] == play_one((3, SEED_BASE, True, "easy", None))


def test_the_report_and_chart_name_every_seat_and_faction(tmp_path: Path) -> None:
    report = run_balance(2, 3, True, "greedy", processes=1)
    text = markdown(report, "chart.svg")
    assert "| seat 1 |" in text and "| seat 3 |" in text and "![win rates" in text
    for faction in report.by_faction:
        assert f"| {FACTION_NAMES[faction]} |" in text
    root = ET.fromstring(svg_chart(report))
    assert root.tag.endswith("svg") and len(root.findall("{*}rect")) == 3 + len(report.by_faction)
    md, svg = write_report(report, tmp_path / "out")
    assert md.read_text().startswith("# Balance: 3 seats, Factions") and svg.exists()


def test_bad_runs_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="2 to 4 seats"):
        run_balance(1, 5, False)
    with pytest.raises(ValueError, match="no bot level 'hard'"):
        run_balance(1, 2, True, "hard")
    with pytest.raises(ValueError, match="at least one game"):
        run_balance(0, 2, True)


def test_the_balance_command_writes_the_report(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(balance, ["--games", "2", "--seats", "2", "--base",
                                     "--processes", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "balance-2p-base.md").exists()
    assert (tmp_path / "balance-2p-base.svg").exists()
    refused = runner.invoke(balance, ["--games", "2", "--seats", "5", "--base"])
    assert refused.exit_code == 2 and "base game takes 2 to 4 seats" in refused.output
