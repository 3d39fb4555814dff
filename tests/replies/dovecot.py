"""A real IMAP server for the tests: Debian's dovecot, started by the test on 127.0.0.1 with a
free port and a config in a temp dir (static password, maildir in the temp dir), stopped
after it. Found by tests/programs.py (installed by .ci/run).

Run as root (as CI does), dovecot's login processes must not be root: they run as its own
``dovenull`` user and the mail as ``dovecot``; run as anyone else, everything runs as that
user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.programs import DOVECOT

USER, PASSWORD = "play", "imap-test-password"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
auth_mechanisms = plain
disable_plaintext_auth = no
mail_location = maildir:{root}/mail/%u
first_valid_uid = {uid}
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
passdb {{
  driver = static
  args = password={password}
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_group} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""


@dataclass(frozen=True)
class Imap:
    host: str
    port: int
    user: str
    password: str
    log: Path

    @property
    def maildir(self) -> Path:
        return self.log.parent / "mail" / self.user


def deliver(server: Imap, mails: list[bytes]) -> None:
    """Put mails into the maildir as a local delivery agent does (a file in ``new/`` each),
    much faster than IMAP APPEND for large ones. The name carries the size (``S=``, ``W=``:
    the mails have CRLF lines) so dovecot need not read a file to answer RFC822.SIZE."""
    new = server.maildir / "new"
    owner = server.maildir.stat()
    stamp = int(time.time())
    for number, raw in enumerate(mails):
        size = len(raw)
        name = f"{stamp}.P{os.getpid()}Q{number}x{time.monotonic_ns()}.pbem,S={size},W={size}"
        tmp = server.maildir / "tmp" / name
        tmp.write_bytes(raw)
        os.chown(tmp, owner.st_uid, owner.st_gid)
        tmp.rename(new / name)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _users() -> dict[str, str]:
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.getuid())
        return {"internal": me.pw_name, "internal_group": me.pw_name, "login": me.pw_name,
                "mail_user": me.pw_name, "mail_group": me.pw_name}
    return {"internal": "dovecot", "internal_group": "dovecot", "login": "dovenull",
            "mail_user": "dovecot", "mail_group": "dovecot"}


@contextmanager
def dovecot() -> Iterator[Imap]:
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)  # dovecot's own users must reach the maildir and the sockets
    users = _users()
    for name in ("run", "state", "mail", "home"):
        (root / name).mkdir()
    port = _free_port()
    mail_user = pwd.getpwnam(users["mail_user"])
    for name in ("mail", "home"):
        os.chown(root / name, mail_user.pw_uid, mail_user.pw_gid)
    config = root / "dovecot.conf"
    config.write_text(CONFIG.format(root=root, port=port, password=PASSWORD,
                                    uid=min(mail_user.pw_uid, 100), **users))
    process = subprocess.Popen([str(DOVECOT.require()), "-F", "-c", str(config)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(port, process, root)
        yield Imap("127.0.0.1", port, USER, PASSWORD, root / "dovecot.log")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()  # the pipe is ours to close (an unclosed one warns)
        shutil.rmtree(root, ignore_errors=True)


def _wait_for(port: int, process: subprocess.Popen[bytes], root: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
            raise RuntimeError(f"dovecot exited: {process.stderr.read() if process.stderr else ''}"
                               f"{log}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                banner = sock.recv(100)
                if banner.startswith(b"* OK"):
                    return
        time.sleep(0.1)
    raise RuntimeError("dovecot did not start listening")
