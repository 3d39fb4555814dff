"""docs/mail.md "A local IMAP server (dovecot)" works as written (issue 24, point 9): its
shell blocks are run in turn — start a dovecot as one's own user, the settings of ``pbem
serve``, a reply delivered into the maildir — and the next tick answers the reply."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from pbem.config import load_config
from tests.programs import DOVECOT

from .conftest import inbound_rows, mails_to, start, turn_mail
from .imap_box import tick

DOCS = Path(__file__).parents[2] / "docs" / "mail.md"
SECTION = "### A local IMAP server (dovecot)"
DOC_PORT = "1143"


def _blocks() -> list[str]:
    text = DOCS.read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n### ", len(SECTION))]
    return re.findall(r"```sh\n(.*?)```", section, re.DOTALL)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(script: str, home: Path) -> None:
    """As the reader runs it: bash, their own user (as root: ``nobody``, since dovecot's
    login processes must not run as root), ``HOME`` the test's."""
    command = ["bash", "-euc", script]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "nobody", "--", "env", f"HOME={home}", *command]
    with tempfile.TemporaryFile() as output:  # not a pipe: the daemon would hold it open
        done = subprocess.run(command, env={**os.environ, "HOME": str(home)}, stdout=output,
                              stderr=subprocess.STDOUT, timeout=60, check=False)
        output.seek(0)
        assert done.returncode == 0, output.read().decode(errors="replace")


@pytest.fixture
def home() -> Iterator[Path]:
    """A home of its own, directly under /tmp (pytest's tmp_path is root's only)."""
    DOVECOT.require()
    path = Path(tempfile.mkdtemp(prefix="pbem-recipe-"))
    path.chmod(0o755)
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)  # nobody's, who runs the recipe
    yield path
    pid = path / "pbem-imap" / "run" / "master.pid"
    if pid.exists():
        subprocess.run(["kill", pid.read_text().strip()], check=False)
        time.sleep(0.2)
    shutil.rmtree(path, ignore_errors=True)


def test_the_recipe_serves_a_mailbox_whose_reply_is_answered(server: Flask, home: Path) -> None:
    start_block, settings_block, reply_block = _blocks()
    port = str(_free_port())
    assert f"port={DOC_PORT}" in start_block and f"INBOUND_IMAP_PORT={DOC_PORT}" in settings_block
    assert DOVECOT.default in start_block
    # The recipe's dovecot is Debian's; PBEM_TEST_DOVECOT (tests/programs.py) may name another.
    start_block = start_block.replace(DOVECOT.default, str(DOVECOT.path))
    _run(start_block.replace(f"port={DOC_PORT}", f"port={port}"), home)
    _wait_for(int(port))

    exports = shlex.split(settings_block.replace("\\\n", " ").split("\n")[0])
    assert exports[0] == "export"
    environ = dict(item.split("=", 1) for item in exports[1:])
    environ["INBOUND_IMAP_PORT"] = port
    assert "pbem serve" in settings_block
    server.config.update({name: value for name, value in load_config(environ).items()
                          if name.startswith("INBOUND_")})

    game = start(2)
    reply_to = turn_mail(game.id, 0).headers["Reply-To"]
    assert reply_to.endswith("@localhost")
    token = reply_to.split("+", 1)[1].split("@", 1)[0]
    assert "play+REPLY-TOKEN@localhost" in reply_block
    before = len(mails_to(game.id, 0))
    _run(reply_block.replace("REPLY-TOKEN", token), home)

    tick(server)
    assert [row.outcome for row in inbound_rows()] == ["answered"]
    assert len(mails_to(game.id, 0)) == before + 1
    stop = re.search(r"Stop it with `([^`]+)`", DOCS.read_text())
    assert stop, "the recipe says how to stop it"
    _run(stop.group(1), home)
    _wait_for(int(port), listening=False)


def _wait_for(port: int, listening: bool = True) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            try:
                up = sock.connect_ex(("127.0.0.1", port)) == 0 and \
                    sock.recv(100).startswith(b"* OK")
            except ConnectionError:  # shutting down
                up = False
        if up == listening:
            return
        time.sleep(0.1)
    raise AssertionError(f"the recipe's dovecot did not {'start' if listening else 'stop'}")
