"""The end of a game in words: who won, the final scores and the tie-break."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.words.glossary import TIEBREAK_WORDS


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
