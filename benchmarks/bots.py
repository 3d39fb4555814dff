"""Bot strength benchmark (issue #16): win rates of the levels against each other.

    python benchmarks/bots.py [--games N] [--line NAME ...] [--budget R] [--seed S]
                              [--processes P] [--log FILE] [--markdown] [--table-only]

Each line plays one `hero` bot against `other` bots in every other seat. Game i of a line is
played from seed S + i (`--seed`, default SEED) with the hero in seat i mod seats, so the seats
are rotated evenly (use a multiple of the seat count). A shared win counts 1/k to each of k
tied winners. The interval is Wilson's 95 % score interval (pbem.balance.wilson). The strong
bot plays with the app's default budget (`strong.ROLLOUTS` rollouts a decision) unless
`--budget` says otherwise. Every call of the hero bot is timed (CPU time of the process): the
table gives the 99th percentile and the longest over all the hero's decisions of the line.

With --log, every finished game is appended to FILE (one JSON line); a later run with the same
FILE plays only the games not in it yet, so a long line can be finished in several runs and
the table is always made from every game logged.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.balance import wilson  # noqa: E402
from pbem.engine.actions import Action  # noqa: E402
from pbem.engine.bots import play_game  # noqa: E402
from pbem.engine.bots.levels import bot_for  # noqa: E402
from pbem.engine.bots.strong import ROLLOUTS  # noqa: E402
from pbem.engine.state import GameState  # noqa: E402

SEED = 1_600_000


@dataclass(frozen=True)
class Line:
    name: str
    hero: str
    other: str
    seats: int
    factions: bool
    target: float


LINES = (
    Line("strong-4-factions", "strong", "greedy", 4, True, 0.75),
    Line("strong-4-base", "strong", "greedy", 4, False, 0.75),
    Line("strong-2-factions", "strong", "greedy", 2, True, 0.92),
    Line("strong-2-base", "strong", "greedy", 2, False, 0.92),
    Line("greedy-2-factions", "greedy", "easy", 2, True, 0.80),
    Line("greedy-2-base", "greedy", "easy", 2, False, 0.80),
)
Job = tuple[str, int, int, int]  # line name, game index, budget, first seed
Game = tuple[float, float, list[float]]  # the hero's share, CPU s of the game, ms a decision


def play(job: Job) -> tuple[str, int, Game]:
    """One game of a line: (line, game index, (the hero's share of the win, CPU seconds of the
    whole game, CPU milliseconds of each of the hero's decisions))."""
    name, index, budget, seed = job
    line = next(line for line in LINES if line.name == name)
    hero_seat = index % line.seats
    bots = [bot_for(line.other, budget) for _ in range(line.seats)]
    hero = bot_for(line.hero, budget)
    decisions: list[float] = []

    def timed_hero(state: GameState, seat: int, rng: list[int]) -> Action:
        began = time.process_time()
        action = hero(state, seat, rng)
        decisions.append(round(1000 * (time.process_time() - began), 2))
        return action

    bots[hero_seat] = timed_hero
    start = time.process_time()
    state, _ = play_game(line.seats, seed + index, bots, {"factions": line.factions})
    took = time.process_time() - start
    winners = state.result["winners"] if state.result else []
    share = 1 / len(winners) if hero_seat in winners else 0.0
    return name, index, (share, took, decisions)


def logged(path: Path | None, budget: int, seed: int) -> dict[tuple[str, int], Game]:
    """The games of FILE played with this budget from this first seed."""
    done: dict[tuple[str, int], Game] = {}
    if path is not None and path.exists():
        for text in path.read_text().splitlines():
            row = json.loads(text)
            if row.get("budget") == budget and row.get("seed", SEED) == seed:
                done[(row["line"], row["game"])] = (row["share"], row["cpu"],
                                                    row.get("decisions", []))
    return done


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def table(lines: list[Line], done: dict[tuple[str, int], Game], markdown: bool) -> None:
    if markdown:
        print("| matchup | seats | factions | games | wins | win rate | 95 % interval | target "
              "| met? | CPU s/game | hero's decisions | p99 CPU ms/decision | longest |")
        print("|---|---:|---|---:|---:|---:|---|---|---|---:|---:|---:|---:|")
    for line in lines:
        rows = [v for (name, _), v in done.items() if name == line.name]
        games = len(rows)
        wins = sum(share for share, _, _ in rows)
        cpu = sum(c for _, c, _ in rows) / games if games else 0.0
        decisions = [ms for _, _, times in rows for ms in times]
        p99 = percentile(decisions, 0.99)
        longest = max(decisions, default=0.0)
        low, high = wilson(wins, games)
        rate = wins / games if games else 0.0
        met = "yes" if games and rate >= line.target else "no"
        others = line.seats - 1
        matchup = f"1 {line.hero} vs {others} {line.other}"
        if markdown:
            print(f"| {matchup} | {line.seats} | {'on' if line.factions else 'off'} | {games} "
                  f"| {wins:g} | {100 * rate:.1f} % | {100 * low:.1f}–{100 * high:.1f} % "
                  f"| ≥ {100 * line.target:.0f} % | {met} | {cpu:.2f} | {len(decisions):,} "
                  f"| {p99:.0f} | {longest:.0f} |")
        else:
            print(f"{line.name:20} {games:5} games  {rate:6.1%}  [{low:6.1%}, {high:6.1%}]  "
                  f"target {line.target:.0%}  {met:3}  {cpu:.2f} s/game  "
                  f"p99 {p99:.0f} ms/decision (longest {longest:.0f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per line")
    parser.add_argument("--line", action="append", default=[],
                        help=f"only these lines (repeatable): {', '.join(x.name for x in LINES)}")
    parser.add_argument("--budget", type=int, default=ROLLOUTS,
                        help="the strong bot's rollouts per decision (default: the app's)")
    parser.add_argument("--seed", type=int, default=SEED, help="game i is played from seed+i")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--log", type=Path, default=None, help="append each game here")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--table-only", action="store_true",
                        help="play nothing: print the table of the games in --log")
    args = parser.parse_args()
    lines = [x for x in LINES if not args.line or x.name in args.line]
    done = logged(args.log, args.budget, args.seed)
    # Round-robin over the lines, so a run stopped early leaves every line as far along.
    jobs: list[Job] = [(x.name, i, args.budget, args.seed) for i in range(args.games)
                       for x in lines if (x.name, i) not in done and not args.table_only]
    with ProcessPoolExecutor(args.processes) as pool:
        for name, index, game in pool.map(play, jobs, chunksize=1):
            done[(name, index)] = game
            if args.log is not None:
                share, took, decisions = game
                with args.log.open("a") as log:
                    log.write(json.dumps({"line": name, "game": index, "share": share,
                                          "cpu": round(took, 3), "budget": args.budget,
                                          "seed": args.seed, "decisions": decisions}) + "\n")
    table(lines, {k: v for k, v in done.items() if k[1] < args.games}, args.markdown)


if __name__ == "__main__":
    main()
