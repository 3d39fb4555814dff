"""A real gunicorn serving pbem on 127.0.0.1 (a free port, a SQLite file), for the tests that
attack or browse the running server: tests/faults/ and the TLS browser test.

``migrated_database`` builds the schema with the real migrations; ``serving`` starts gunicorn
as the Procfile does (same config file), optionally with TLS from a throw-away self-signed
certificate made by ``openssl``, waits for ``/healthz`` and always stops the process.
"""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import migrate_to_head

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
BOOT_SECONDS = 45
SECRET_KEY = "live-server-test"


@dataclass
class Live:
    base: str  # e.g. "https://127.0.0.1:41234"
    log: Path
    process: subprocess.Popen[bytes]

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def migrated_database(directory: Path) -> str:
    """A SQLite file in ``directory`` at the head migration; its URL."""
    url = f"sqlite:///{directory / 'live.sqlite3'}"
    migrate_to_head(url, directory / "instance", SECRET_KEY=SECRET_KEY)
    return url


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 valid one day, and its key (no passphrase)."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60)
    return cert, key


def unverified() -> ssl.SSLContext:
    """Trust the throw-away certificate (the tests talk to their own server only)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@contextmanager
def serving(db_url: str, directory: Path, *, tls: bool = False, workers: int = 2,
            env: dict[str, str] | None = None) -> Iterator[Live]:
    """gunicorn with ``gunicorn.conf.py`` on a free port until the block ends."""
    port = free_port()
    argv = [str(BIN / "gunicorn"), "pbem.app:create_app()", "--config", "gunicorn.conf.py",
            "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--graceful-timeout", "5"]
    scheme = "http"
    if tls:
        cert, key = self_signed_certificate(directory)
        argv += ["--certfile", str(cert), "--keyfile", str(key)]
        scheme = "https"
    environ = dict(os.environ)
    environ.update(DATABASE_URL=db_url, SECRET_KEY=SECRET_KEY, HOME=str(directory),
                   MAIL_BACKEND="console")
    environ.update(env or {})  # the caller's settings win (e.g. a real SMTP backend)
    log = directory / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(argv, cwd=REPO, env=environ, stdout=out,
                                   stderr=subprocess.STDOUT)
        live = Live(f"{scheme}://127.0.0.1:{port}", log, process)
        try:
            _wait_for_health(live)
            yield live
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


def _wait_for_health(live: Live) -> None:
    deadline = time.monotonic() + BOOT_SECONDS
    url = f"{live.base}/healthz"
    while time.monotonic() < deadline:
        if live.process.poll() is not None:
            raise AssertionError(f"gunicorn exited with {live.process.returncode}:\n"
                                 f"{live.output()}")
        try:
            with urllib.request.urlopen(url, timeout=2, context=unverified()) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, ssl.SSLError, TimeoutError):
            time.sleep(0.3)  # not up yet, or too busy booting to answer within the probe's 2 s
    raise AssertionError(f"no answer on {url} after {BOOT_SECONDS} s:\n{live.output()}")
