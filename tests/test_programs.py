"""On a machine without chromium, dovecot, redis-server or pgbouncer the tests that start them skip,
naming the Debian package; under ``PBEM_TEST_REQUIRE_PROGRAMS=1`` (.ci/run) they fail
(tests/programs.py, issue 23, point 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.programs import CHROMIUM, DOVECOT, PGBOUNCER, REDIS_SERVER, REQUIRE_ENV

REPO = Path(__file__).resolve().parent.parent
PROGRAMS = [CHROMIUM, DOVECOT, REDIS_SERVER, PGBOUNCER]


def test_a_missing_program_skips_with_the_package_to_install(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    monkeypatch.setenv(DOVECOT.env, str(tmp_path / "no-dovecot"))
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y dovecot-imapd"):
        DOVECOT.require()


def test_a_missing_program_fails_where_it_is_required(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(REQUIRE_ENV, "1")
    monkeypatch.setenv(CHROMIUM.env, str(tmp_path / "no-chromium"))
    with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_ENV}=1 makes that a failure"):
        CHROMIUM.require()


def test_the_override_names_the_program_to_start(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    program = tmp_path / "redis-server"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv(REQUIRE_ENV, "1")
    monkeypatch.setenv(REDIS_SERVER.env, str(program))
    assert REDIS_SERVER.require() == program
    program.chmod(0o644)  # there, but not a program
    with pytest.raises(pytest.fail.Exception):
        REDIS_SERVER.require()


@pytest.mark.slow
def test_the_browser_imap_redis_and_pooler_tests_skip_on_a_machine_without_the_programs(
        tmp_path: Path) -> None:
    """The wiring, end to end: a pytest run of modules of each kind, every program pointed
    at nothing, skips the tests that start one (the others still pass) and fails none."""
    env = {name: value for name, value in os.environ.items()
           if name not in (REQUIRE_ENV, "PBEM_TEST_DATABASE_URL")}
    env.update({program.env: str(tmp_path / "absent" / program.name) for program in PROGRAMS})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q", "-rs",
         "tests/e2e/test_tls.py", "tests/replies/test_imap.py",
         "tests/replies/test_local_imap_recipe.py", "tests/faults/test_shared_rate_limits.py",
         "tests/scheduler/test_pgbouncer.py"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert " failed" not in output and " error" not in output, output
    for program in PROGRAMS:
        assert f"apt-get install -y {program.package}, or set {program.env}" in output, output
