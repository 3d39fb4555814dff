"""What a notice says, and how a person's words and a seat's handle are written for each
service: text a player typed (a name, table talk) never pings anyone (``@everyone`` in a
name stays plain text), and a hand-off mentions the seat's handle in the service's own form.

No notice carries a seat's private link: a webhook's channel may be read by others, and a
turn link lets whoever has it play the seat. Notices link to the game's public page.
"""

from __future__ import annotations

import re

SEP = " · "
HANDLE_FORMS = {
    "discord": re.compile(r"\d{15,21}"),  # a user id (Developer Mode → Copy User ID)
    "slack": re.compile(r"[UW][A-Z0-9]{6,20}"),  # a member id (profile → Copy member ID)
    "matrix": re.compile(r"@[a-z0-9._=/+-]{1,200}:[A-Za-z0-9.-]{1,200}(:\d{1,5})?"),
    "telegram": re.compile(r"@[A-Za-z][A-Za-z0-9_]{4,31}"),
}
ZERO_WIDTH_SPACE = "\u200b"


def plain(service: str, text: str) -> str:
    """A person's words made inert for ``service``: no mention, no mass ping, no markup
    that Slack reads as a link or a command."""
    text = text.replace("@", "@" + ZERO_WIDTH_SPACE)
    if service == "slack":
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text


def handle_service(handle: str) -> str | None:
    """Which service's form ``handle`` has (None: none we know)."""
    for service, form in HANDLE_FORMS.items():
        if form.fullmatch(handle):
            return service
    return None


def mention(service: str, handle: str | None, name: str) -> str:
    """The seat on ``service``: its handle in the service's mention form when it has one
    of that service, else its name, inert."""
    form = HANDLE_FORMS.get(service)
    if handle and form is not None and form.fullmatch(handle):
        if service in ("discord", "slack"):
            return f"<@{handle}> ({plain(service, name)})"
        return f"{handle} ({plain(service, name)})"
    return plain(service, name)


def title(service: str, game_name: str) -> str:
    return f"Alien Frontiers: {plain(service, game_name)}"


def your_turn(round_no: int, left: str, url: str, decision: str | None = None) -> str:
    head = f"Decision needed{SEP}{decision}" if decision else f"Your turn{SEP}round {round_no}"
    return f"{head}{SEP}{left}\nOpen your turn from your mail or My games. Game: {url}"


def still_waiting(hours: int, url: str) -> str:
    return (f"Still your turn: no visit or move for {hours} h since your turn notice.\n"
            f"Open your turn from your mail or My games. Game: {url}")


def reminder(round_no: int, left: str, url: str) -> str:
    return f"Reminder{SEP}{left}{SEP}your turn in round {round_no}\nGame: {url}"


def hand_off(who: str, round_no: int, left: str, url: str) -> str:
    return f"Now it's {who}'s turn{SEP}round {round_no}{SEP}{left}\nGame: {url}"


def nudge(who: str, hours: int, url: str) -> str:
    return (f"{who} has not looked at their turn for {hours} h since it started "
            f"(their other notices were tried).\nGame: {url}")


def result(line: str, url: str) -> str:
    return f"{line}\nFinal scores: {url}"


def talk(author: str, text: str) -> str:
    return f"{author}: {text}"
