"""What "Your seat → Notices in chat apps" and the host page's table channel show.

Read-only. A channel is shown by its ``shown`` form (service, host, last four characters):
its URL is a secret and never reaches a page.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.models import Game, Seat
from pbem.models.notice import NoticeChannel
from pbem.services import notice_channels

ESCALATE_CHOICES = (1, 2, 4, 6, 8, 12, 18, 24, 36, 48, 72)


@dataclass(frozen=True)
class ChannelLine:
    id: int
    shown: str
    paused: bool
    paused_reason: str


@dataclass(frozen=True)
class NoticePanel:
    channels: list[ChannelLine]
    handle: str
    escalate_hours: int | None
    escalate_choices: tuple[int, ...]
    table: ChannelLine | None
    can_add: bool
    escalating: bool  # the seat's turn notice escalates unless the page says it was seen


def _line(channel: NoticeChannel) -> ChannelLine:
    return ChannelLine(channel.id, channel.shown, channel.paused,
                       channel.paused_reason or "")


def table_line(game: Game) -> ChannelLine | None:
    table = notice_channels.seat_channels(game, None)
    return _line(table[0]) if table else None


def notice_panel(game: Game, seat: Seat) -> NoticePanel:
    channels = [_line(c) for c in notice_channels.seat_channels(game, seat.index)]
    return NoticePanel(
        channels=channels, handle=seat.chat_handle or "", escalate_hours=seat.escalate_hours,
        escalate_choices=ESCALATE_CHOICES, table=table_line(game),
        can_add=len(channels) < notice_channels.MAX_SEAT_CHANNELS,
        escalating=notice_channels.escalating(game, seat.index))
