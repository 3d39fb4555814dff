"""The real processes boot: gunicorn as the Procfile starts it, and ``pbem serve``.

Each test starts a subprocess on 127.0.0.1 with a free port, waits a bounded time for
``/healthz`` and always stops the process.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

pytestmark = pytest.mark.slow  # each test starts a server process

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
BOOT_SECONDS = 45


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _procfile_command(kind: str) -> list[str]:
    for line in (REPO / "Procfile").read_text(encoding="utf-8").splitlines():
        name, _, command = line.partition(":")
        if name.strip() == kind:
            return shlex.split(command)
    raise AssertionError(f"Procfile has no {kind} process")


def _process_env(db_url: str, tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DATABASE_URL=db_url, SECRET_KEY="process-test", HOME=str(tmp_path))
    return env


@contextmanager
def _running(argv: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


def _output(log: Path) -> str:
    return log.read_text(encoding="utf-8", errors="replace")


def _wait_for_health(port: int, process: subprocess.Popen[bytes], log: Path) -> bytes:
    deadline = time.monotonic() + BOOT_SECONDS
    url = f"http://127.0.0.1:{port}/healthz"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"process exited with {process.returncode}:\n{_output(log)}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                assert response.status == 200
                return bytes(response.read())
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)  # not up yet, or too busy booting to answer within the probe's 2 s
    raise AssertionError(f"no answer on {url} after {BOOT_SECONDS} s:\n{_output(log)}")


def test_gunicorn_boots_as_the_procfile_starts_it(db_url: str, tmp_path: Path) -> None:
    argv = _procfile_command("web")
    assert argv[0] == "gunicorn"
    assert argv[argv.index("--bind") + 1] == "0.0.0.0:$PORT"
    port = _free_port()
    argv[0] = str(BIN / "gunicorn")
    argv[argv.index("--bind") + 1] = f"127.0.0.1:{port}"
    log = tmp_path / "gunicorn.log"
    env = _process_env(db_url, tmp_path)
    env.update(INBOUND_ADDRESS="play@pbem.example.org", PREFERRED_URL_SCHEME="https")
    with _running(argv, env, log) as process:
        health = json.loads(_wait_for_health(port, process, log))
        assert health == {"status": "ok", "engine": "pure Python"}  # a checkout is never compiled
    _a_shell_without_the_servers_settings_mails_as_the_server(db_url, tmp_path)


def _a_shell_without_the_servers_settings_mails_as_the_server(db_url: str,
                                                              tmp_path: Path) -> None:
    """Issue 26: ``pbem new-game`` in a shell without the server's inbound settings mailed
    invitations with no Reply-To. The server recorded them when it started: the shell uses
    them, and says so."""
    shell = {name: value for name, value in _process_env(db_url, tmp_path).items()
             if not name.startswith(("INBOUND_", "PREFERRED_URL_SCHEME", "MAIL_BACKEND"))}
    made = subprocess.run(
        [str(BIN / "pbem"), "new-game", "--name", "From a shell", "--player",
         "Ana <ana@example.org>", "--player", "bot", "--base-game"],
        cwd=REPO, env=shell, capture_output=True, text=True, timeout=120, check=False)
    assert made.returncode == 0, made.stderr
    assert "pbem: INBOUND_ADDRESS is not set here: using the server's, play@pbem.example.org" \
        in made.stderr
    assert "https://127.0.0.1:5000/play/" in made.stdout
    public_id = made.stdout.split()[1]
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            headers = conn.execute(sa.text(
                "SELECT o.headers FROM outbox o JOIN games g ON g.id = o.game_id "
                "WHERE g.public_id = :id AND o.kind = 'invitation'"), {"id": public_id}).all()
    finally:
        engine.dispose()
    replies = [json.loads(row[0]) if isinstance(row[0], str) else row[0] for row in headers]
    assert [r["Reply-To"].startswith("play+") and r["Reply-To"].endswith("@pbem.example.org")
            for r in replies] == [True]


def test_pbem_serve_migrates_and_serves(tmp_path: Path) -> None:
    port = _free_port()
    db_url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    argv = [str(BIN / "pbem"), "serve", "--port", str(port)]
    log = tmp_path / "serve.log"
    with _running(argv, _process_env(db_url, tmp_path), log) as process:
        _wait_for_health(port, process, log)
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
        assert b"Alien Frontiers" in page
    output = _output(log)
    assert f"pbem is running: open http://127.0.0.1:{port}/" in output
    assert "Running upgrade" in output
    assert "pbem: created the database schema (" in output  # names each revision it applied
