"""A slow SMTP server (aiosmtpd on 127.0.0.1, a free port): each message is accepted only
after ``delay`` seconds, as a loaded provider does. It counts every copy of every Message-ID,
so a test can say how many mails arrived twice."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class SlowRecorder:
    delay: float
    copies: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(self.delay)
        msg = message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.copies[str(msg["Message-ID"])] += 1
        return "250 Message accepted"

    @property
    def received(self) -> int:
        return sum(self.copies.values())

    @property
    def duplicated(self) -> int:
        """Copies beyond the first of every Message-ID."""
        return sum(n - 1 for n in self.copies.values())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def slow_smtp(delay: float) -> Iterator[tuple[int, SlowRecorder]]:
    """``(port, recorder)`` of a running slow server, stopped when the block ends."""
    recorder = SlowRecorder(delay)
    port = _free_port()
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, recorder
    finally:
        controller.stop()
