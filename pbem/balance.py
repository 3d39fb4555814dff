"""The balance report: many self-play games on every core, and who wins them.

    pbem balance --games 10000 --seats 4 --factions [--level greedy] [--out DIR]

`run_balance` plays the games in worker processes (each game is a pure function of its seed,
so the run is the same however many processes share it) and tallies them; `write_report`
writes a Markdown report and an SVG chart of the win rates with their 95 % intervals. A
shared win counts as a fraction (1/k to each of k tied winners), so the win rates of a line
add up to 1 and parity is 1/seats. Imports only the engine (and click for the command).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import click

from pbem.engine.bots import play_game
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVELS, bot_for
from pbem.engine.ids import FACTION_NAMES, MAX_PLAYERS, MAX_PLAYERS_BASE, MIN_PLAYERS

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
SEED_BASE = 160_000  # game i of a run is played from seed SEED_BASE + i


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (wins may be fractional: shared wins)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass(frozen=True)
class GameRecord:
    """What one finished game tells the report."""

    winners: tuple[int, ...]
    factions: tuple[str | None, ...]  # per seat; None in the base game
    points: tuple[int, ...]  # victory points per seat at the end
    rounds: int
    finished: bool


@dataclass
class Tally:
    """Games, wins (fractional on a tie) and victory points of one seat or one faction."""

    games: int = 0
    wins: float = 0.0
    points: int = 0

    def add(self, share: float, points: int) -> None:
        self.games += 1
        self.wins += share
        self.points += points

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_points(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass
class BalanceReport:
    games: int
    seats: int
    factions: bool
    level: str
    by_seat: list[Tally]
    by_faction: dict[str, Tally] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    unfinished: int = 0

    def add(self, record: GameRecord) -> None:
        if not record.finished:
            self.unfinished += 1
            return
        self.rounds.append(record.rounds)
        for seat in range(self.seats):
            share = 1 / len(record.winners) if seat in record.winners else 0.0
            self.by_seat[seat].add(share, record.points[seat])
            faction = record.factions[seat]
            if faction is not None:
                self.by_faction.setdefault(faction, Tally()).add(share, record.points[seat])

    @property
    def mean_rounds(self) -> float:
        return sum(self.rounds) / len(self.rounds) if self.rounds else 0.0


def play_one(job: tuple[int, int, bool, str, int | None]) -> GameRecord:
    """One self-play game (a worker's unit of work): seats, seed, factions, level, budget."""
    seats, seed, factions, level, budget = job
    bot = bot_for(level, budget)
    state, _ = play_game(seats, seed, bot, {"factions": factions})
    result = state.result
    if state.phase != "over" or result is None:
        return GameRecord((), (), (), state.turn.round, False)
    return GameRecord(tuple(result["winners"]), tuple(s.faction for s in state.seats),
                      tuple(score["total"] for score in result["scores"]), state.turn.round,
                      True)


def run_balance(games: int, seats: int, factions: bool, level: str = DEFAULT_LEVEL,
                processes: int | None = None, budget: int | None = None,
                on_game: Callable[[GameRecord], None] | None = None) -> BalanceReport:
    """Play `games` self-play games at `level` on `processes` worker processes (every core
    by default; 1 plays in this process) and tally them."""
    top = MAX_PLAYERS if factions else MAX_PLAYERS_BASE
    if not MIN_PLAYERS <= seats <= top:
        raise ValueError(f"{'Factions' if factions else 'The base game'} takes "
                         f"{MIN_PLAYERS} to {top} seats, not {seats}.")
    if level not in LEVELS:
        raise ValueError(f"There is no bot level '{level}': the levels are {', '.join(LEVELS)}.")
    if games < 1:
        raise ValueError("A balance run plays at least one game.")
    report = BalanceReport(games, seats, factions, level, [Tally() for _ in range(seats)])
    jobs = [(seats, SEED_BASE + i, factions, level, budget) for i in range(games)]
    for record in _records(jobs, processes or os.cpu_count() or 1):
        report.add(record)
        if on_game is not None:
            on_game(record)
    return report


def _records(jobs: list[tuple[int, int, bool, str, int | None]],
             processes: int) -> Iterator[GameRecord]:
    if processes == 1:
        yield from map(play_one, jobs)
        return
    chunk = max(1, min(50, len(jobs) // (processes * 8)))
    with ProcessPoolExecutor(processes) as pool:
        yield from pool.map(play_one, jobs, chunksize=chunk)


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _row(name: str, tally: Tally, parity: float) -> str:
    low, high = tally.interval
    flag = "" if low <= parity <= high else (" **above**" if low > parity else " **below**")
    return (f"| {name} | {tally.games} | {tally.wins:g} | {_pct(tally.rate)} | "
            f"{_pct(low)} – {_pct(high)}{flag} | {tally.mean_points:.2f} |")


def markdown(report: BalanceReport, chart: str | None = None) -> str:
    """The report as Markdown: per seat, per faction, game length."""
    parity = 1 / report.seats
    game = "Factions" if report.factions else "base game"
    head = ("| {} | games | wins | win rate | 95 % interval | mean VP |\n"
            "|---|---:|---:|---:|---|---:|")
    lines = [f"# Balance: {report.seats} seats, {game}, level {report.level}", "",
             f"{report.games} self-play games (seeds {SEED_BASE}–{SEED_BASE + report.games - 1});"
             f" parity is {_pct(parity)}; a shared win counts 1/k to each of k winners.",
             f"Game length: {report.mean_rounds:.2f} rounds on average "
             f"(min {min(report.rounds, default=0)}, max {max(report.rounds, default=0)}).",
             f"Unfinished games (step limit): {report.unfinished}.", "", "## By seat", "",
             head.format("seat")]
    lines += [_row(f"seat {i + 1}", t, parity) for i, t in enumerate(report.by_seat)]
    if report.by_faction:
        lines += ["", "## By faction (games = games in which it was chosen)", "",
                  head.format("faction")]
        for faction, tally in sorted(report.by_faction.items(), key=lambda kv: -kv[1].rate):
            lines.append(_row(FACTION_NAMES.get(faction, faction), tally, parity))
    lines += ["", "An interval marked above or below excludes parity."]
    if chart:
        lines += ["", f"![win rates with 95 % intervals]({chart})"]
    return "\n".join(lines) + "\n"


def svg_chart(report: BalanceReport) -> str:
    """Horizontal bars of the win rates with their 95 % intervals and a parity line.
    Written by hand: a few rectangles and lines need no plotting library."""
    rows = [(f"Seat {i + 1}", t) for i, t in enumerate(report.by_seat)]
    rows += [(FACTION_NAMES.get(f, f), t) for f, t in sorted(report.by_faction.items())]
    label, width, bar, top = 190, 420, 22, 40
    height = top + bar * len(rows) + 40
    top_rate = max([0.5, *(t.interval[1] for _, t in rows)])

    def x(rate: float) -> float:
        return label + width * rate / top_rate
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label + width + 30}" '
             f'height="{height}" font-family="sans-serif" font-size="12">',
             f'<text x="10" y="20" font-size="14">Win rate, {report.seats} seats, '
             f'{"Factions" if report.factions else "base game"}, {report.games} games '
             f'(95 % intervals)</text>']
    for n, (name, tally) in enumerate(rows):
        y = top + n * bar
        low, high = tally.interval
        parts += [f'<text x="10" y="{y + 15}">{_escape(name)}</text>',
                  f'<rect x="{label}" y="{y + 4}" width="{x(tally.rate) - label:.1f}" '
                  f'height="{bar - 8}" fill="#7a9cc6"/>',
                  f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y + bar / 2}" '
                  f'y2="{y + bar / 2}" stroke="black" stroke-width="2"/>']
    parity_x = x(1 / report.seats)
    bottom = top + bar * len(rows)
    parts += [f'<line x1="{parity_x:.1f}" x2="{parity_x:.1f}" y1="{top}" y2="{bottom}" '
              'stroke="#c0392b" stroke-dasharray="4 3"/>',
              f'<text x="{parity_x - 20:.1f}" y="{bottom + 16}" fill="#c0392b">parity</text>',
              f'<text x="{label}" y="{bottom + 32}">0 %</text>',
              f'<text x="{label + width - 30}" y="{bottom + 32}">{_pct(top_rate)}</text>',
              "</svg>"]
    return "\n".join(parts) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("'", "&#39;")


def write_report(report: BalanceReport, out: Path) -> tuple[Path, Path]:
    """Write `balance-<seats>p-<game>.md` and its `.svg` into the folder `out`."""
    out.mkdir(parents=True, exist_ok=True)
    stem = f"balance-{report.seats}p-{'factions' if report.factions else 'base'}"
    svg = out / f"{stem}.svg"
    svg.write_text(svg_chart(report), encoding="utf-8")
    md = out / f"{stem}.md"
    md.write_text(markdown(report, svg.name), encoding="utf-8")
    return md, svg


@click.command("balance")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seats", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4,
              show_default=True)
@click.option("--factions/--base", default=True, show_default=True,
              help="Play with the Factions expansion (the default game) or the base game.")
@click.option("--level", type=click.Choice(LEVELS), default=DEFAULT_LEVEL, show_default=True)
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="The strong bot's rollouts per decision.")
@click.option("--processes", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Folder for the Markdown report and the SVG chart.")
def balance(games: int, seats: int, factions: bool, level: str, budget: int | None,
            processes: int | None, out: Path) -> None:
    """Play self-play games on every core and report who wins (seat, faction)."""
    if not factions and seats > MAX_PLAYERS_BASE:
        raise click.BadParameter(f"the base game takes {MIN_PLAYERS} to {MAX_PLAYERS_BASE} "
                                 "seats", param_hint="--seats")
    with click.progressbar(length=games, label="Playing", show_pos=True,
                           file=sys.stderr) as bar:
        report = run_balance(games, seats, factions, level, processes, budget,
                             on_game=lambda _record: bar.update(1))
    md, svg = write_report(report, out)
    click.echo(f"Wrote {md} and {svg}.")

