"""The end of a game in words: who won, the final scores and the tie-break."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.words.glossary import TIEBREAK_WORDS, agenda


def result_words(view: Mapping[str, Any], names: Sequence[str]) -> str:
    result = view.get("result")
    if not result:
        return ""
    winners = [names[i] for i in result.get("winners", []) if i < len(names)]
    scores = ", ".join(f"{names[i]} {s['total']}" for i, s in enumerate(result.get("scores", []))
                       if i < len(names))
    verb = "share the win" if len(winners) > 1 else "wins"
    words = f"{' and '.join(winners)} {verb}. Final scores: {scores}."
    tiebreak = result.get("tiebreak")
    if tiebreak:
        words += f" Tie broken by {TIEBREAK_WORDS.get(tiebreak, tiebreak)}."
    return words


# where each point came from, in the order the rules list them: (key, one, more)
VP_PARTS = (("colonies", "colony", "colonies"), ("territories", "territory", "territories"),
            ("cards", "Alien Tech card", "Alien Tech cards"),
            ("positron", "Positron Field", "Positron Field"), ("agendas", "Agenda", "Agendas"))


def standings(view: Mapping[str, Any], names: Sequence[str],
              resigned: Collection[int] = ()) -> list[dict[str, Any]]:
    """The final ranking, best first: each player's place (shared on a shared win), total,
    the points by source, and revealed Agendas (public at the end, ruling A4); ``resigned``:
    the seats whose player resigned (the autopilot played them on), marked so."""
    result = view.get("result") or {}
    scores = result.get("scores") or []
    revealed = result.get("agendas") or []
    winners = set(result.get("winners") or [])
    factions = bool((view.get("options") or {}).get("factions"))
    parts = [p for p in VP_PARTS if factions or p[0] != "agendas"]
    rows = []
    for i, vp in enumerate(scores):
        if i >= len(names):
            continue
        rows.append({
            "seat": i, "name": names[i], "total": vp.get("total", 0), "won": i in winners,
            "resigned": i in resigned,
            "parts": [(one if vp.get(key, 0) == 1 else more, vp.get(key, 0))
                      for key, one, more in parts],
            "agendas": [agenda(a).name for a in (revealed[i] if i < len(revealed) else [])],
        })
    rows.sort(key=lambda r: (not r["won"], -r["total"], r["seat"]))
    for place, row in enumerate(rows, start=1):
        row["place"] = 1 if row["won"] else place
    return rows


def tiebreak_words(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """ "Ana and Ben tied on 9 VP; the tie was broken by most revealed Agendas." ("" if no
    tie-break was needed)."""
    result = view.get("result") or {}
    used = result.get("tiebreak")
    if not used:
        return ""
    scores = result.get("scores") or []
    top = max((s.get("total", 0) for s in scores), default=0)
    tied = [names[i] for i, s in enumerate(scores) if s.get("total") == top and i < len(names)]
    how = TIEBREAK_WORDS.get(used, used)
    if result.get("shared"):
        return f"{' and '.join(tied)} tied on {top} VP; after {how} they still share the win."
    return f"{' and '.join(tied)} tied on {top} VP; the tie was broken by {how}."


@dataclass(frozen=True)
class SeasonGame:
    """One finished game of a season: each seat's player (a key that names the same player in
    every game, never shown, and the name to show) and the engine's result."""

    players: Sequence[tuple[str, str]]
    result: Mapping[str, Any]


def season_standings(games: Sequence[SeasonGame]) -> list[dict[str, Any]]:
    """The season's table, best first: games played, wins (a shared win counts for each) and
    points (the sum of final totals), by player; the latest name of each player is shown."""
    table: dict[str, dict[str, Any]] = {}
    for game in games:
        scores = game.result.get("scores") or []
        winners = set(game.result.get("winners") or [])
        for seat, (key, name) in enumerate(game.players):
            row = table.setdefault(key, {"name": name, "games": 0, "wins": 0, "points": 0})
            row["name"] = name
            row["games"] += 1
            row["wins"] += int(seat in winners)
            row["points"] += int((scores[seat] if seat < len(scores) else {}).get("total", 0))
    rows = sorted(table.values(), key=lambda r: (-r["wins"], -r["points"], r["name"]))
    for place, row in enumerate(rows, start=1):
        row["place"] = place
    return rows
