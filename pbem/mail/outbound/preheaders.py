"""The preheader of each mail kind: the one line an inbox shows beside the (unchanging)
subject, saying what this mail is about ("Your turn · round 6 · 47 h left").

It is the plain-text part's first line and hidden preview text at the top of the HTML part
(``templates/mail/_layout.html``). Why not the subject: docs/mail.md, "Subject and preheader".
"""

from __future__ import annotations

from collections.abc import Sequence

SEP = " · "


def your_turn(round_no: int, left: str) -> str:
    return SEP.join(("Your turn", f"round {round_no}", left))


def decision(what: str, left: str) -> str:
    return SEP.join(("Decision needed", what, left))


def others_turn(actor: str, round_no: int, next_name: str | None, recipient: str,
                autopilot: bool = False) -> str:
    moved = f"Autopilot played for {actor}" if autopilot else f"{actor} moved"
    parts = [moved, f"round {round_no}"]
    if next_name is not None:
        parts.append("your turn now" if next_name == recipient else f"{next_name}'s turn now")
    return SEP.join(parts)


def reminder(left: str, round_no: int) -> str:
    return SEP.join(("Reminder", left, f"your turn in round {round_no}"))


def autopilot(absent: bool) -> str:
    return SEP.join(("Your time ran out", "the autopilot played for you"
                     + (" and will go on" if absent else "")))


def digest(lines: int, next_name: str | None, recipient: str) -> str:
    parts = ["Daily digest", f"{lines} thing{'s' if lines != 1 else ''} happened"]
    if next_name is not None:
        parts.append("your turn now" if next_name == recipient else f"{next_name}'s turn now")
    return SEP.join(parts)


def vacation(away: str, until: str) -> str:
    return SEP.join((f"{away} is on vacation", f"their clock stops until {until}"))


def game_over(winners: Sequence[str], top: int | None) -> str:
    if not winners:
        return "Game over"
    who = " and ".join(winners)
    won = f"{who} share the win" if len(winners) > 1 else f"{who} won"
    return SEP.join(("Game over", won + (f" with {top} VP" if top is not None else "")))


def invitation(invited_by: str | None) -> str:
    """There is no accept step: the mail's link is the seat, and the game mails the turns."""
    return SEP.join(("Invitation", f"{invited_by} invited you" if invited_by
                     else "a new game of Alien Frontiers", "keep this mail: its link is your seat"))


def paused() -> str:
    return SEP.join(("Paused by the host", "no clock runs until the host resumes the game"))


def resumed(whose: str | None, yours: bool) -> str:
    parts = ["The game goes on", "the clock runs again"]
    if whose is not None:
        parts.append("your turn" if yours else f"{whose}'s turn")
    return SEP.join(parts)


def deadline_extended(whose: str | None, yours: bool, hours: int, left: str) -> str:
    more = f"{hours} more hour{'' if hours == 1 else 's'} for " + (
        "you" if yours else whose or "the player")
    return SEP.join(("A deadline moved", more, left))


def email_failing(seat_name: str) -> str:
    return SEP.join(("Host", f"mail to {seat_name} is failing", "please check the address"))


MAGIC_LINK = "Your sign-in link · your Alien Frontiers games"


def resigned(who: str, yours: bool, next_name: str | None, recipient: str | None) -> str:
    if yours:
        return SEP.join(("You resigned", "the computer plays your seat from now on"))
    parts = [f"{who} resigned", "the computer plays the seat"]
    if next_name is not None:
        parts.append("your turn now" if next_name == recipient else f"{next_name}'s turn now")
    return SEP.join(parts)


def cancelled(host: str | None, when: str) -> str:
    return SEP.join((f"Cancelled by the host{f' ({host})' if host else ''}", f"on {when}",
                     "no more moves or mail"))


def notice_paused(channel: str) -> str:
    return SEP.join(("Notices paused", f"{channel} failed 5 times in a row",
                     "mail still comes"))


def hosting() -> str:
    return SEP.join(("Host", "your game is ready", "your host page"))


def host_link() -> str:
    return SEP.join(("Host", "your new host link", "the old one no longer works"))


def substitution(old_name: str, your_turn: bool) -> str:
    return SEP.join(("Invitation", f"you take over {old_name}'s seat",
                     "your move now" if your_turn else "we mail you on your turn"))


def handed_over(new_name: str) -> str:
    return SEP.join(("Your seat was handed over", f"{new_name} plays it now",
                     "your links no longer work"))


def rematch_asked(asker: str) -> str:
    return SEP.join(("Host", f"{asker} asks for a rematch", "start it in one tap"))
