"""A real PgBouncer for the tests: Debian's ``pgbouncer``, started by the test on 127.0.0.1
with a free port in **transaction mode**, in front of the test PostgreSQL (trust auth, user
``postgres``), its files in a temp dir, stopped after it. Found by tests/programs.py
(installed by .ci/run); a PgBouncer already running on the machine is never used.

Each server connection is set to one schema on connect (``connect_query``): the pooler hands
any client transaction any server connection, so a per-client ``search_path`` (the
``options`` startup parameter the other tests use) cannot follow the client through it.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from tests.live_server import free_port
from tests.programs import PGBOUNCER, wait_for_start

SERVER_CONNECTIONS = 3  # fewer than the clients: transactions really share connections


@dataclass
class Bouncer:
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    database: str = "pbem"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{self.database}"

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() \
            else ""


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


@contextmanager
def pgbouncer(directory: Path, upstream: sa.URL, schema: str) -> Iterator[Bouncer]:
    """PgBouncer in transaction mode on a free loopback port, in front of ``upstream``'s
    database with every server connection's ``search_path`` set to ``schema``."""
    port = free_port()
    log = directory / "pgbouncer.log"
    users = directory / "users.txt"
    users.write_text('"postgres" ""\n')
    ini = directory / "pgbouncer.ini"
    ini.write_text(
        "[databases]\n"
        f"pbem = host={upstream.host or '127.0.0.1'} port={upstream.port or 5432} "
        f"dbname={upstream.database} user={upstream.username or 'postgres'} "
        f"connect_query='SET search_path TO {schema}'\n"
        "\n[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {users}\n"
        f"pool_mode = transaction\ndefault_pool_size = {SERVER_CONNECTIONS}\n"
        "max_client_conn = 200\nignore_startup_parameters = extra_float_digits\n")
    argv = [str(PGBOUNCER.require()), str(ini)]
    if os.geteuid() == 0:
        argv[1:1] = ["-u", "nobody"]  # it refuses to run as root
    with log.open("wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    running = Bouncer(port, process, log)
    try:
        wait_for_start(process, lambda: _listening(port), f"pgbouncer on {port}",
                       running.output)
        yield running
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=15)
