"""The programs some tests start, found in one place: Debian's chromium (the browser tests,
tests/e2e/), dovecot (the IMAP tests, tests/replies/), redis-server (shared rate limits,
tests/faults/test_shared_rate_limits.py) and pgbouncer (the scheduler behind a pooler,
tests/scheduler/test_pgbouncer.py).

The README's test command must pass on a fresh machine that has none of them, so a test that
needs a missing one is skipped, and the reason names the Debian package that brings it.
``.ci/run`` installs all four and sets ``PBEM_TEST_REQUIRE_PROGRAMS=1``: there a missing
program fails the test instead, so CI never passes by skipping. ``PBEM_TEST_CHROMIUM``,
``PBEM_TEST_DOVECOT``, ``PBEM_TEST_REDIS_SERVER`` and ``PBEM_TEST_PGBOUNCER`` point at another
copy of a program (or at nothing, to see the tests skip).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REQUIRE_ENV = "PBEM_TEST_REQUIRE_PROGRAMS"


@dataclass(frozen=True)
class Program:
    name: str
    default: str  # an absolute path, or a command looked up on PATH
    env: str  # overrides ``default``
    package: str  # the Debian package that installs it
    needed_by: str  # what is not tested without it, for the skip reason

    @property
    def path(self) -> Path:
        """Where the program is looked for (read each time: tests change the override)."""
        wanted = os.environ.get(self.env) or self.default
        if os.sep not in wanted:
            wanted = shutil.which(wanted) or wanted
        return Path(wanted)

    def found(self) -> bool:
        path = self.path
        return path.is_file() and os.access(path, os.X_OK)

    def require(self) -> Path:
        """The program's path; where it is missing, skip the test (fail it under
        ``PBEM_TEST_REQUIRE_PROGRAMS=1``)."""
        if self.found():
            return self.path
        reason = (f"{self.name} is not installed at {self.path} (apt-get install -y "
                  f"{self.package}, or set {self.env}): {self.needed_by}")
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{reason}; {REQUIRE_ENV}=1 makes that a failure", pytrace=False)
        pytest.skip(reason)


CHROMIUM = Program("chromium", "/usr/bin/chromium", "PBEM_TEST_CHROMIUM", "chromium",
                   "the browser tests drive a real browser only")
DOVECOT = Program("dovecot", "/usr/sbin/dovecot", "PBEM_TEST_DOVECOT", "dovecot-imapd",
                  "the IMAP path is tested against a real server only")
REDIS_SERVER = Program("redis-server", "redis-server", "PBEM_TEST_REDIS_SERVER",
                       "redis-server", "shared rate limits are tested against a real Redis only")
PGBOUNCER = Program("pgbouncer", "/usr/sbin/pgbouncer", "PBEM_TEST_PGBOUNCER", "pgbouncer",
                    "the scheduler behind a pooler is tested against a real PgBouncer only")


def wait_for_start(process: subprocess.Popen[bytes], ready: Callable[[], bool], what: str,
                   output: Callable[[], str], seconds: float = 30) -> None:
    """Poll ``ready`` until it holds; fail with the program's ``output`` if ``process`` exits
    first or ``seconds`` pass (a bound on a failure only, never a wait of its own)."""
    deadline = time.monotonic() + seconds
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"{what} did not start:\n{output()}")
        time.sleep(0.1)
