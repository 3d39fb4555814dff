"""The ``pbem`` command is installed and reachable both ways."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from flask import Flask

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


def test_db_upgrade_is_idempotent(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["pbem", "db-upgrade"])
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output
