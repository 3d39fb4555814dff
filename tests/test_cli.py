"""The ``pbem`` command is installed and reachable both ways."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask

import pbem.cli.status as status_module
from pbem.engine.compiled import which_engine
from pbem.extensions import db
from tests.conftest import build_app

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parent.parent


def test_pbem_help_lists_the_commands() -> None:
    result = subprocess.run(
        [str(BIN / "pbem"), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    for command in ("serve", "db-upgrade", "clock"):
        assert command in result.stdout


def test_the_group_is_registered_on_the_flask_cli(tmp_path: Path) -> None:
    # flask builds the app to list commands: keep its database and key out of the checkout.
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'cli.sqlite3'}", SECRET_KEY="x")
    result = subprocess.run(
        [str(BIN / "flask"), "--app", "pbem.app", "pbem", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=REPO,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "serve" in result.stdout


REVISIONS = sorted(path.stem for path in (REPO / "migrations" / "versions").glob("0*.py"))


def test_db_upgrade_is_idempotent(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["pbem", "db-upgrade"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"pbem: database schema is up to date (at {REVISIONS[-1]})\n"


def _upgrade(app: Flask) -> list[str]:
    result = app.test_cli_runner().invoke(args=["pbem", "db-upgrade"])
    assert result.exit_code == 0, result.output
    return str(result.stdout).splitlines()  # Alembic logs its steps to stderr


def test_db_upgrade_on_an_empty_database_says_it_created_the_schema(
        fresh_db_url: str, tmp_path: Path) -> None:
    app = build_app(fresh_db_url, tmp_path / "instance")
    lines = _upgrade(app)
    assert lines[0] == f"pbem: created the database schema ({len(REVISIONS)} migrations applied):"
    assert [line.split()[0] for line in lines[1:]] == REVISIONS  # in the order applied
    assert lines[1] == "  0001_initial  initial schema: app_meta, stamped with the schema " \
                       "creation time"
    assert _upgrade(app) == [f"pbem: database schema is up to date (at {REVISIONS[-1]})"]
    with app.app_context():
        db.engine.dispose()


def test_db_upgrade_names_only_the_migrations_it_applied(fresh_db_url: str,
                                                         tmp_path: Path) -> None:
    app = build_app(fresh_db_url, tmp_path / "instance")
    with app.app_context():
        flask_migrate.upgrade(revision=REVISIONS[-3])
    lines = _upgrade(app)
    assert lines[0] == (f"pbem: applied 2 migrations (from {REVISIONS[-3]} to "
                        f"{REVISIONS[-1]}):")
    assert [line.split()[0] for line in lines[1:]] == REVISIONS[-2:]
    with app.app_context():
        db.engine.dispose()


@pytest.mark.slow
def test_pbem_status_names_the_engine_the_installed_command_runs(tmp_path: Path) -> None:
    """Run as a host's shell runs it (the installed script, from another directory): the
    first line says which engine the deploy's build left (tools/compile_engine.py)."""
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'status.sqlite3'}",
               SECRET_KEY="x")
    for command in ("db-upgrade", "status"):
        done = subprocess.run([str(BIN / "pbem"), command], capture_output=True, text=True,
                              timeout=120, check=False, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"engine: {which_engine()}"
    assert which_engine() == "pure Python"  # this checkout; the compiled build's run: tests/engine


def test_pbem_status_says_compiled_when_the_engine_is(app: Flask,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(status_module, "which_engine", lambda: "compiled")
    result = app.test_cli_runner().invoke(args=["pbem", "status"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "engine: compiled"
