"""The words of the "decision needed" mail: what to decide, who waits on it, and every legal
answer with its effect and the link to its form (pure, from the reader's view)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.engine import GameView, action_from_json, format_action
from pbem.mail.outbound import links
from pbem.words import describe, glossary

# Pending decisions that get the "decision needed" mail, even inside the seat's own turn.
DECISIONS = ("draft", "discard_agendas")


@dataclass(frozen=True)
class Question:
    what: str  # for the preheader: "choose your Faction"
    question: str
    waiting: str


def is_decision(picture: GameView, seat_index: int) -> bool:
    """True when the seat's pending decision gets the decision mail (e.g. seat 0's draft)."""
    pending = picture.get("pending") or {}
    return pending.get("kind") in DECISIONS and pending.get("seat") == seat_index


def question(picture: GameView, seat_index: int, names: list[str]) -> Question:
    pending = picture.get("pending") or {}
    kind = pending.get("kind")
    if kind == "draft":
        later = [names[i] for i in range(seat_index - 1, -1, -1)]
        text = ("Choose your Faction board for the rest of the game. The draft goes from "
                "the last seat to the first")
        text += (f"; after you: {', then '.join(later)}" if later
                 else "; you choose last, and then the game begins")
        return Question("choose your Faction", text + ".", "Everyone is waiting for your choice.")
    if kind == "discard_agendas":
        count = int(pending.get("count", 1))
        what = f"discard {count} Agenda{'s' if count != 1 else ''}"
        limit = describe.hand_limit_words(describe.agenda_limit_of(
            picture["seats"][seat_index].get("cards") or []))
        text = (f"You hold more Agendas than you may: the limit is {limit}. Discard "
                f"{count} face-down Agenda{'s' if count != 1 else ''}")
        text += " (the Multiverse Window is gone)." if pending.get("why") else "."
        if pending.get("optional"):
            what = "keep or discard Agendas"
            text = ("You drew Agendas: keep them, or discard face-down ones (you must "
                    f"if you hold more than the limit of {limit}).")
        active = picture["active"]
        waiting = ("Your turn goes on once you decide." if active == seat_index
                   else f"{names[active]}'s turn cannot go on until you choose.")
        return Question(what, text, waiting)
    return Question("your decision", "Your decision is needed.",
                    f"{names[picture['active']]}'s turn cannot go on until you choose.")


def choices(picture: GameView, names: list[str], agendas: list[str],
            turn_link: str) -> list[dict[str, str]]:
    """Every legal answer to the decision, each with its effect and a link to its form;
    ``agendas``: the reader's face-down Agendas (the discard names them)."""
    found = []
    for action in picture.get("legal") or []:
        notation = format_action(action_from_json(action))
        found.append({"label": describe.describe_action(action, names, agendas),
                      "notation": notation, "effect": _effect(action, agendas),
                      "url": links.move_url(turn_link, notation)})
    return found


def _effect(action: dict[str, Any], agendas: list[str]) -> str:
    if action.get("kind") == "choose_faction":
        text = glossary.FACTIONS.get(action["faction"])
        if text:
            return f"Its facility: {text.facility} You, the owner: {text.owner}"
    elif action.get("kind") == "discard_agenda":
        index = int(action.get("index", 0))
        if 1 <= index <= len(agendas):
            card = glossary.agenda(agendas[index - 1])
            return f"In game: {card.in_game}. End of game: {card.end_game}."
    return ""
