"""A real Redis for the tests: Debian's ``redis-server``, started by the test on 127.0.0.1 with
a free port and its files in a temp dir, nothing saved to disk, stopped after it. Found by
tests/programs.py (installed by .ci/run); a Redis already running on the machine is never
used.
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.live_server import free_port
from tests.programs import REDIS_SERVER, wait_for_start


@dataclass
class Redis:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def uri(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


def ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(directory: Path) -> Iterator[Redis]:
    """``redis-server`` on a free loopback port until the block ends."""
    port = free_port()
    log = directory / "redis.log"
    argv = [str(REDIS_SERVER.path), "--bind", "127.0.0.1", "--port", str(port),
            "--dir", str(directory), "--save", "", "--appendonly", "no", "--logfile", str(log)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    running = Redis(port, process, log)
    try:
        wait_for_start(process, lambda: ping(port), f"redis-server on {port}",
                       lambda: log.read_text() if log.exists() else "")
        yield running
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=15)
